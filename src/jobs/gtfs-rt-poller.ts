import type { Runtime } from '../pipeline/runtime.ts';
import { GTFS_DE, POLL_INTERVAL_MS } from '../sources/gtfs/source.ts';
import type { IndexResult } from '../sources/gtfs/rt-index.ts';
import type { ScheduledJob } from './scheduler.ts';
import { pollGtfsRt } from './gtfs-rt-poll.ts';
import { pollGtfsRtInChild, storeIsShared } from './gtfs-child-process.ts';

/** Indexes outlive a few missed polls, then expire: volatile ids answer no_data. */
export const TTL_POLLS = 3;

/**
 * Where polls and static builds run (GTFS_RT_POLL_PROCESS): a child process needs a store it
 * can open too, for polls.
 */
export function pollsInChild(rt: Runtime): boolean {
  const mode = rt.config.gtfsRtPollProcess;
  if (mode === 'child' && !storeIsShared(rt)) throw new Error('GTFS_RT_POLL_PROCESS=child needs a store shared across processes (a SQLite file or Redis)');
  return mode === 'child' || (mode === 'auto' && storeIsShared(rt));
}

/** One poll, in the child process or in this one as configured. */
export async function runGtfsRtPoll(rt: Runtime, o: { ttlMs: number; now?: Date; signal?: AbortSignal }): Promise<IndexResult> {
  return pollsInChild(rt) ? pollGtfsRtInChild(rt, o) : pollGtfsRt(rt, o);
}

/** The poller job; tests build one with a short interval (and so a short TTL). */
export function gtfsRtPoller(intervalMs = POLL_INTERVAL_MS): ScheduledJob {
  return {
    name: 'gtfs-rt-poller',
    intervalMs,
    enabled: (rt) => rt.sourceEnabled(GTFS_DE),
    async run(rt, log, signal) {
      const r = await runGtfsRtPoll(rt, { ttlMs: intervalMs * TTL_POLLS, signal });
      log(`GTFS-RT: ${r.status.trip_updates} trip updates of ${r.status.entities} entities, as_of ${r.status.as_of}; decode+index ${r.decode_index_ms} ms, ${r.writes} writes in ${r.write_ms} ms`);
    },
  };
}
