import type { StaticIndex } from './static-index.ts';
import type { FeedStatus, StoredTrip } from './rt-index.ts';
import { detailAt, timelineDay, tripSchedule, tripTimeline, type StopUpdateOut, type TripDetail, type TripSchedule, type TripTimeline } from './trip-detail.ts';
import { normalise } from '../../normalise/fields.ts';

export interface JoinedTrip { stored: StoredTrip; schedule: TripSchedule | null; timeline?: TripTimeline }

/**
 * Trips of the current poll, decoded and joined with the schedule, for the requests that ask
 * again before the next poll (a trip page refreshes every poll interval, popular trips are
 * asked by many). Only the position and the delays at request time are computed per request.
 * Entries belong to one poll and one static index: a new poll, a replaced index or the poll's
 * expiry empties the cache, so it never answers what the store no longer holds. Bounded, least
 * recently used first out.
 */
export class TripCache {
  private pollId: string | null = null;
  private index: StaticIndex | null = null;
  private expiresMs = 0;
  private readonly entries = new Map<string, JoinedTrip | null>();

  constructor(private readonly max = 4096) {}

  async get(feed: FeedStatus, index: StaticIndex | null, tripId: string, nowMs: number, read: () => Promise<StoredTrip | null>): Promise<JoinedTrip | null> {
    const pollId = feed.poll_id ?? feed.polled_at;
    if (pollId !== this.pollId || index !== this.index) {
      this.entries.clear();
      this.pollId = pollId;
      this.index = index;
      this.expiresMs = feed.expires_ms ?? 0;
    }
    const cacheable = nowMs < this.expiresMs;
    if (cacheable) {
      const hit = this.entries.get(tripId);
      if (hit !== undefined) {
        this.entries.delete(tripId);
        this.entries.set(tripId, hit);
        return hit;
      }
    } else this.entries.clear();
    const stored = await read();
    const joined: JoinedTrip | null = stored ? { stored, schedule: index ? tripSchedule(index, tripId) : null } : null;
    if (cacheable) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(tripId, joined);
    }
    return joined;
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
