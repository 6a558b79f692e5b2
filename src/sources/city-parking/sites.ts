import type { AdapterResult } from '../../core/data-type.ts';
import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { toBerlinIso } from '../../core/time.ts';

/** A live count older than this is no live value any more (frozen feeds exist, e.g. Köln since 2021). */
export const PARKING_MAX_AGE_HOURS = 48;

/** Occupied share 0..1 from free spaces and capacity, rounded to three places; null when either is missing. */
export function occupancyShare(free: number | null, capacity: number | null): number | null {
  if (free === null || capacity === null || capacity <= 0) return null;
  const occupied = Math.min(Math.max(capacity - free, 0), capacity);
  return Math.round((occupied / capacity) * 1000) / 1000;
}

export function ageHours(iso: string | null, now: Date): number | null {
  return iso === null ? null : (now.getTime() - Date.parse(iso)) / 3600_000;
}

/** A site's live value is dropped (free_spaces null) when it is older than the guard. */
export function withFreshness(site: ParkingSiteRecord, now: Date): ParkingSiteRecord {
  const age = ageHours(site.updated_at, now);
  if (site.free_spaces === null || (age !== null && age <= PARKING_MAX_AGE_HOURS)) return site;
  return { ...site, free_spaces: null, occupancy_share: null };
}

/** The newest live time of a feed, or null when none of its sites is live. */
export function newestUpdate(sites: readonly ParkingSiteRecord[]): string | null {
  let best: string | null = null;
  for (const s of sites) if (s.live && s.updated_at && (best === null || Date.parse(s.updated_at) > Date.parse(best))) best = s.updated_at;
  return best;
}

export const zoned = (ms: number): string | null => (Number.isFinite(ms) ? toBerlinIso(ms) : null);

/**
 * The freshness guard every live parking feed goes through: a feed whose newest live value is
 * older than the guard is frozen (no_data with the reason, never shown as live); otherwise each
 * site older than the guard loses its live count.
 */
export function guardedParking(sites: readonly ParkingSiteRecord[], now: Date, meta: Record<string, unknown> = {}): AdapterResult<ParkingSiteRecord[]> {
  const newest = newestUpdate(sites);
  const age = ageHours(newest, now);
  if (newest === null || age === null || age > PARKING_MAX_AGE_HOURS) {
    return {
      data: null,
      status: 'no_data',
      meta: {
        ...meta,
        reason:
          newest === null
            ? 'the parking feed carries no live value'
            : `the parking feed has not been updated since ${newest} (more than ${PARKING_MAX_AGE_HOURS} h): its counts are not shown as live`,
        feed_updated_at: newest,
      },
    };
  }
  return { data: sites.map((s) => withFreshness(s, now)), as_of: newest, ...(Object.keys(meta).length ? { meta } : {}) };
}
