import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
export const TICKS_PER_S = 100;

/** User + system CPU ticks of a process so far (/proc/<pid>/stat fields 14 and 15), or null off Linux or once it is gone. */
export function cpuTicks(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // The command name in parentheses may hold spaces: fields are counted after its closing parenthesis.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}
