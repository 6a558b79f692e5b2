import { hostname } from 'node:os';
import type { JobHost } from '../../core/job.ts';
import { GTFS_DE } from '../../sources/gtfs/source.ts';
import { downloadStaticIndex } from './static-build.ts';
import { buildGtfsStaticInChild, pollsInChild } from './child-process.ts';
import { openStaticIndex, reopenStaticIndex, staticIndexPath, type StaticMeta } from '../../sources/gtfs/static-index.ts';
import type { ScheduledJob } from '../../core/job.ts';

/** gtfs.de publishes a new timetable version about weekly; a younger index is kept. */
export const STATIC_MAX_AGE_MS = 7 * 24 * 3600_000;
const CHECK_INTERVAL_MS = 6 * 3600_000;

/**
 * Downloads the static zip and rebuilds the on-disk index, in a child process where polls run
 * in one (parsing tens of millions of stop times should not share the API's event loop, nor its
 * memory with a zip of hundreds of MB), then opens the new index here.
 */
export async function refreshGtfsStatic(rt: JobHost, signal?: AbortSignal): Promise<StaticMeta> {
  builds++;
  try {
    const meta = pollsInChild(rt) ? await buildGtfsStaticInChild(rt, signal) : await downloadStaticIndex(rt, signal);
    reopenStaticIndex(staticIndexPath(rt.config));
    return meta;
  } finally {
    builds--;
  }
}

let builds = 0;

/** A static build is running in this process (the poller waits for a missing index then). */
export function staticBuildRunning(): boolean {
  return builds > 0;
}

/**
 * The index is a file on this instance's disk, so the job's lock is per host: every host keeps
 * its own copy (instances sharing a host share the file and the lock).
 */
export const GTFS_STATIC_JOB: ScheduledJob = {
  name: `gtfs-static@${hostname()}`,
  intervalMs: CHECK_INTERVAL_MS,
  enabled: (rt) => rt.sourceEnabled(GTFS_DE),
  async run(rt, log, signal) {
    const current = openStaticIndex(staticIndexPath(rt.config));
    const age = current ? Date.now() - Date.parse(current.meta.built_at) : Infinity;
    if (age < STATIC_MAX_AGE_MS) return;
    const meta = await refreshGtfsStatic(rt, signal);
    log(`static GTFS indexed: ${meta.stops} stops, ${meta.trips} trips, ${meta.stop_times} stop times`);
  },
};
