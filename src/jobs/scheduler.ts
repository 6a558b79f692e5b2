import { randomUUID } from 'node:crypto';
import { intervalOf, type JobHost, type ScheduledJob } from '../core/job.ts';

export type { ScheduledJob };

/** Runs `job` every interval, once per cluster (a store lock that outlives the run), while it is enabled. */
export function runScheduled(host: JobHost, job: ScheduledJob) {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let current: Promise<void> | null = null;
  const shutdown = new AbortController();
  const intervalMs = intervalOf(job, host.config);
  const tick = async () => {
    if (stopped) return;
    if (job.enabled(host)) {
      const token = randomUUID();
      const lockKey = `joblock:${job.name}`;
      const lockMs = Math.max(1000, intervalMs - 1000);
      if (await host.store.setIfAbsent(lockKey, token, lockMs).catch(() => true)) {
        current = job
          .run(host, (msg) => host.log.info({ job: job.name }, msg), shutdown.signal)
          .then(() => {
            host.metrics.jobRuns.inc({ job: job.name, outcome: 'ok' });
            host.jobFinished(job, null);
          })
          .catch((err) => {
            host.metrics.jobRuns.inc({ job: job.name, outcome: 'error' });
            host.log.warn({ job: job.name, err: String(err) }, 'job failed');
            host.jobFinished(job, err);
          });
        await current;
        current = null;
      }
    }
    if (!stopped) timer = setTimeout(tick, intervalMs);
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
