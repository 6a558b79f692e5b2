import type { Runtime } from '../pipeline/runtime.ts';
import { GTFS_DE, POLL_INTERVAL_MS } from '../sources/gtfs/source.ts';
import { cityStopTable, indexFeed, type IndexResult, type StaticLookup } from '../sources/gtfs/rt-index.ts';
import { openStaticIndex, staticIndexPath, type StaticIndex } from '../sources/gtfs/static-index.ts';
import type { ScheduledJob } from './scheduler.ts';

/** Indexes outlive a few missed polls, then expire: volatile ids answer no_data. */
export const TTL_POLLS = 3;

// The city split of the static stops, derived once per static index version.
const lookups = new WeakMap<StaticIndex, StaticLookup>();

function staticLookup(index: StaticIndex | null): StaticLookup | null {
  if (!index) return null;
  let l = lookups.get(index);
  if (!l) {
    l = { routeOf: (id) => index.routeOf(id), stops: cityStopTable(index.cityOfStops()) };
    lookups.set(index, l);
  }
  return l;
}

/** One poll: fetch the feed (size-capped by the source), decode entity by entity, write the indexes. */
export async function pollGtfsRt(rt: Runtime, o: { ttlMs: number; now?: Date; signal?: AbortSignal }): Promise<IndexResult> {
  const res = rt.http(GTFS_DE).request('', { headers: { accept: 'application/x-protobuf' }, signal: o.signal });
  const feed = { buf: (await res).body as Buffer | null };
  const lookup = staticLookup(openStaticIndex(staticIndexPath(rt.config)));
  return indexFeed(feed, { store: rt.store, ttlMs: o.ttlMs, now: o.now ?? new Date(), static: lookup });
}

/** The poller job; tests build one with a short interval (and so a short TTL). */
export function gtfsRtPoller(intervalMs = POLL_INTERVAL_MS): ScheduledJob {
  return {
    name: 'gtfs-rt-poller',
    intervalMs,
    enabled: (rt) => rt.sourceEnabled(GTFS_DE),
    async run(rt, log, signal) {
      const r = await pollGtfsRt(rt, { ttlMs: intervalMs * TTL_POLLS, signal });
      log(`GTFS-RT: ${r.status.trip_updates} trip updates of ${r.status.entities} entities, as_of ${r.status.as_of}; decode+index ${r.decode_index_ms} ms, ${r.writes} writes in ${r.write_ms} ms`);
    },
  };
}
