/**
 * CPU pinning for paired load runs (bench/run.ts): the servers under test share one core, the load
 * generators run on the others. On a shared virtual machine the speed of a core moves by ±20 %
 * within a second; two servers loaded at the same time on the same core see the same moves, so
 * their ratio keeps only the difference in their own cost. Linux's `taskset` (util-linux) does the
 * pinning; where it is missing (or on one core) the runs go unpinned and say so.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

const count = cpus().length;

/** The core the servers share: the last one. */
export const SERVER_CPU = String(count - 1);
/** The cores the load generators run on: all but the servers' core (the same core on a one-core machine). */
export const LOAD_CPUS = count > 1 ? (count > 2 ? `0-${count - 2}` : '0') : '0';

/** Whether pinning works here: taskset runs and there is a core for the load apart from the servers'. */
export const PINNING = count > 1 && !spawnSync('taskset', ['--version']).error;

export const PINNING_WARNING = 'WARNING: taskset not found or one core only; the paired runs are not pinned, so the ratios move more.';

/** Pins a running process, every thread of it, to the servers' core. */
export function pinServer(pid: number | undefined): void {
  if (!PINNING || pid === undefined) return;
  const r = spawnSync('taskset', ['--all-tasks', '--cpu-list', '--pid', SERVER_CPU, String(pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`taskset could not pin ${pid}: ${r.stderr}`);
}

/** A command line that runs `command` on the load generators' cores. */
export function onLoadCpus(command: string, args: string[]): [string, string[]] {
  return PINNING ? ['taskset', ['--cpu-list', LOAD_CPUS, command, ...args]] : [command, args];
}
