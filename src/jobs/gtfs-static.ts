import { hostname } from 'node:os';
import type { Runtime } from '../pipeline/runtime.ts';
import { GTFS_DE, STATIC_MAX_BYTES, STATIC_TIMEOUT_MS } from '../sources/gtfs/source.ts';
import { buildStaticIndex } from '../sources/gtfs/static-build.ts';
import { openStaticIndex, reopenStaticIndex, staticIndexPath, type StaticMeta } from '../sources/gtfs/static-index.ts';
import type { ScheduledJob } from './scheduler.ts';

/** gtfs.de publishes a new timetable version about weekly; a younger index is kept. */
export const STATIC_MAX_AGE_MS = 7 * 24 * 3600_000;
const CHECK_INTERVAL_MS = 6 * 3600_000;

/** Downloads the static zip and rebuilds the on-disk index (atomically replaced). */
export async function refreshGtfsStatic(rt: Runtime, signal?: AbortSignal): Promise<StaticMeta> {
  const http = rt.http(GTFS_DE);
  const url = http.url('static');
  const res = await http.request('', { base: url, maxBytes: STATIC_MAX_BYTES, timeoutMs: STATIC_TIMEOUT_MS, signal });
  const path = staticIndexPath(rt.config);
  const meta = await buildStaticIndex(res.body, path, url);
  reopenStaticIndex(path);
  return meta;
}

/**
 * The index is a file on this instance's disk, so the job's lock is per host: every host keeps
 * its own copy (instances sharing a host share the file and the lock).
 */
export const gtfsStaticJob: ScheduledJob = {
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
