import type { JobHost, ScheduledJob } from '../core/job.ts';
import { runScheduled } from './scheduler.ts';
import { stopGtfsChildren } from './gtfs/child-process.ts';

/**
 * Starts the given jobs: the app passes the catalog's (Catalog.jobsFor), i.e. exactly the jobs
 * that fill the stores of the data types its settings leave usable.
 */
export function startJobs(host: JobHost, jobs: readonly ScheduledJob[]) {
  const running = jobs.map((job) => runScheduled(host, job));
  return {
    /** Stops the jobs, then the GTFS work children (a kept poll child would otherwise wait for a poll that never comes). */
    stop: async () => {
      await Promise.all(running.map((r) => r.stop()));
      stopGtfsChildren();
    },
  };
}
