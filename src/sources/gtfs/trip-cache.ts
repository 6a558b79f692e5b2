import type { StaticIndex } from './static-index.ts';
import type { FeedStatus, StoredTrip } from './rt-index.ts';
import { detailAt, timelineDay, tripSchedule, tripTimeline, type StopUpdateOut, type TripDetail, type TripSchedule, type TripTimeline } from './trip-detail.ts';
import { normalise } from '../../core/normalise.ts';
import { PollCache } from './poll-cache.ts';

export interface JoinedTrip {
  stored: StoredTrip;
  schedule: TripSchedule | null;
  timeline?: TripTimeline;
}

/**
 * Trips of the current poll, decoded and joined with the schedule (of the static index they
 * were joined with), for the requests that ask again before the next poll: a trip page
 * refreshes every poll interval, popular trips are asked by many.
 */
export class TripCache {
  private readonly cache: PollCache<JoinedTrip | null>;

  constructor(max = 4096) {
    this.cache = new PollCache(max);
  }

  get(feed: FeedStatus, index: StaticIndex | null, tripId: string, nowMs: number, read: () => Promise<StoredTrip | null>): Promise<JoinedTrip | null> {
    return this.cache.get(
      feed,
      tripId,
      nowMs,
      async () => {
        const stored = await read();
        return stored ? { stored, schedule: index ? tripSchedule(index, tripId) : null } : null;
      },
      index,
    );
  }
}

/**
 * A cached trip's detail at `nowMs`: its timeline is built on first use and kept with the
 * entry (rebuilt only if the service day it was placed on no longer applies), so a request
 * computes just the position. The stop list is kept normalised: the normaliser hands a clean
 * record back as it is, so the pipeline copies nothing of it per request.
 */
export function detailOf(j: JoinedTrip, index: StaticIndex | null, nowMs: number): TripDetail {
  let tl = j.timeline;
  if (!tl || timelineDay(tl, nowMs) !== tl.day) {
    tl = tripTimeline(j.stored, index, nowMs, j.schedule ?? undefined);
    tl.stop_updates = normalise(tl.stop_updates) as StopUpdateOut[];
    j.timeline = tl;
  }
  return detailAt(tl, nowMs);
}
