import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Resident memory of one process in MB (VmRSS), 0 when it is gone. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** The process and all its descendants (poll children). */
export function tree(pid: number): number[] {
  let kids: number[] = [];
  try {
    kids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter(Boolean);
  } catch {
    /* no children */
  }
  return [pid, ...kids.flatMap(tree)];
}

/** Resident memory of the process and its descendants in MB. */
export function treeRssMb(pid: number): number {
  return tree(pid).reduce((a, x) => a + rssMb(x), 0);
}
