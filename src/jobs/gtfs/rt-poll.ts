import type { JobHost } from '../../core/job.ts';
import { GTFS_DE } from '../../sources/gtfs/source.ts';
import { cityStopTable, indexFeed, type IndexResult, type StaticLookup } from '../../sources/gtfs/rt-index.ts';
import { openStaticIndex, staticIndexPath, type StaticIndex } from '../../sources/gtfs/static-index.ts';
import { ScheduleCarry } from '../../sources/gtfs/schedule-carry.ts';

/**
 * One GTFS-RT poll, wherever it runs (this module is all the poll child process needs of it;
 * gtfs-rt-poller.ts is the job that decides where).
 */

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

  poll(tripId: string[]) {
    return this.carry.poll(tripId);
  }
}

const lookups = new WeakMap<StaticIndex, PollerLookup>();

function staticLookup(index: StaticIndex | null): PollerLookup | null {
  if (!index) return null;
  let l = lookups.get(index);
  if (!l) lookups.set(index, (l = new PollerLookup(index)));
  return l;
}

/** One poll: fetch the feed (size-capped by the source), decode entity by entity, write the indexes. */
export async function pollGtfsRt(rt: JobHost, o: { ttlMs: number; now?: Date; signal?: AbortSignal; feedReleased?: () => void }): Promise<IndexResult> {
  // Only the holder references the body (not a kept response or promise), so the indexer can
  // let the ~70 MB go as soon as the trip shards are written.
  const feed = { buf: (await rt.http(GTFS_DE).request('', { headers: { accept: 'application/x-protobuf' }, signal: o.signal })).body as Buffer | null };
  const lookup = staticLookup(openStaticIndex(staticIndexPath(rt.config)));
  return indexFeed(feed, { store: rt.store, ttlMs: o.ttlMs, now: o.now ?? new Date(), static: lookup, feedReleased: o.feedReleased });
}
