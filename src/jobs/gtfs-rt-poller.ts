import type { Runtime } from '../pipeline/runtime.ts';
import { GTFS_DE, POLL_INTERVAL_MS } from '../sources/gtfs/source.ts';
import { cityStopTable, indexFeed, type IndexResult, type StaticLookup } from '../sources/gtfs/rt-index.ts';
import { openStaticIndex, staticIndexPath, type StaticIndex } from '../sources/gtfs/static-index.ts';
import { ScheduleCarry } from '../sources/gtfs/schedule-carry.ts';
import type { ScheduledJob } from './scheduler.ts';
import { pollGtfsRtInChild, storeIsShared } from './gtfs-rt-poll-process.ts';

/** Indexes outlive a few missed polls, then expire: volatile ids answer no_data. */
export const TTL_POLLS = 3;

/**
 * What the poller derives from one static index version: the city split of its stops, and the
 * schedule data carried from poll to poll (schedule-carry.ts). Kept per index, so a replaced
 * index starts afresh.
 */
class PollerLookup implements StaticLookup {
  readonly stops;
  private readonly carry;

  constructor(index: StaticIndex) {
    this.stops = cityStopTable(index.cityOfStops());
    this.carry = new ScheduleCarry(index, this.stops.ids);
  }

  poll(tripId: string[]) { return this.carry.poll(tripId); }
}

const lookups = new WeakMap<StaticIndex, PollerLookup>();

function staticLookup(index: StaticIndex | null): PollerLookup | null {
  if (!index) return null;
  let l = lookups.get(index);
  if (!l) lookups.set(index, (l = new PollerLookup(index)));
  return l;
}

/** One poll: fetch the feed (size-capped by the source), decode entity by entity, write the indexes. */
export async function pollGtfsRt(rt: Runtime, o: { ttlMs: number; now?: Date; signal?: AbortSignal; feedReleased?: () => void }): Promise<IndexResult> {
  // Only the holder references the body (not a kept response or promise), so the indexer can
  // let the ~70 MB go as soon as the trip shards are written.
  const feed = { buf: (await rt.http(GTFS_DE).request('', { headers: { accept: 'application/x-protobuf' }, signal: o.signal })).body as Buffer | null };
  const lookup = staticLookup(openStaticIndex(staticIndexPath(rt.config)));
  return indexFeed(feed, { store: rt.store, ttlMs: o.ttlMs, now: o.now ?? new Date(), static: lookup, feedReleased: o.feedReleased });
}

/** Where polls run (GTFS_RT_POLL_PROCESS): a child process needs a store it can open too. */
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
