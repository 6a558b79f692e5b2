import type { Runtime } from '../pipeline/runtime.ts';
import { jobsFor } from './registry.ts';
import { runScheduled, type ScheduledJob } from './scheduler.ts';

/** Starts every background job declared in jobs/registry.ts. */
export function startJobs(rt: Runtime) {
  const running = jobsFor(rt.config).map((job: ScheduledJob) => runScheduled(rt, job));
  return {
    stop: async () => {
      await Promise.all(running.map((r) => r.stop()));
    },
  };
}
