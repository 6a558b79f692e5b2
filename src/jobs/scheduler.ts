import { randomUUID } from 'node:crypto';
import type { Runtime } from '../pipeline/runtime.ts';
import { watchedJob } from '../pipeline/format-drift.ts';

/**
 * A background job: runs every `intervalMs`, once per cluster (a store lock that outlives
 * the run), and is skipped while its source is disabled.
 */
export interface ScheduledJob {
  name: string;
  intervalMs: number;
  /** First run after this delay (default: at once). */
  initialDelayMs?: number;
  enabled(rt: Runtime): boolean;
  /** `signal` aborts on shutdown, so long runs (precomputes) can stop between steps. */
  run(rt: Runtime, log: (msg: string) => void, signal: AbortSignal): Promise<void>;
}

export function runScheduled(rt: Runtime, job: ScheduledJob) {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let current: Promise<void> | null = null;
  const shutdown = new AbortController();
  const tick = async () => {
    if (stopped) return;
    if (job.enabled(rt)) {
      const token = randomUUID();
      const lockKey = `joblock:${job.name}`;
      const lockMs = Math.max(1000, job.intervalMs - 1000);
      if (await rt.store.setIfAbsent(lockKey, token, lockMs).catch(() => true)) {
        current = job
          .run(rt, (msg) => rt.log.info({ job: job.name }, msg), shutdown.signal)
          .then(() => {
            rt.metrics.jobRuns.inc({ job: job.name, outcome: 'ok' });
            watchedJob(rt, job.name, null);
          })
          .catch((err) => {
            rt.metrics.jobRuns.inc({ job: job.name, outcome: 'error' });
            rt.log.warn({ job: job.name, err: String(err) }, 'job failed');
            // A parser rejecting the download marks the sources of the stored types (format drift).
            watchedJob(rt, job.name, err);
          });
        await current;
        current = null;
      }
    }
    if (!stopped) timer = setTimeout(tick, job.intervalMs);
  };
  timer = setTimeout(tick, job.initialDelayMs ?? 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      shutdown.abort();
      if (current) await current;
    },
  };
}
