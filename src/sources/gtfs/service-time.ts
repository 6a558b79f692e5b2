import { berlinLocalToDate } from '../../core/time.ts';

/**
 * GTFS times are seconds after "noon minus 12 h" of the service day in the agency's zone
 * (Europe/Berlin for every German feed), and may pass 24:00: 25:10:00 is 01:10 on the next
 * calendar day of the same service day. On DST change days noon minus 12 h is 23:00 or 01:00,
 * which is exactly why no midnight shortcut is used.
 */

/** "HH:MM:SS" (H may exceed 23) to seconds; null when empty or malformed. */
export function parseGtfsTime(s: string | null | undefined): number | null {
  if (!s) return null;
  const m = /^\s*(\d{1,3}):(\d{2}):(\d{2})\s*$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

// Two Intl calls per conversion are the cost of a zone rule; a day's reference is computed once.
const refByDay = new Map<string, number>();

/** Instant (epoch ms) of a service day's reference point: local noon minus 12 hours. */
export function serviceDayRefMs(yyyymmdd: string): number {
  let ref = refByDay.get(yyyymmdd);
  if (ref === undefined) {
    const y = Number(yyyymmdd.slice(0, 4)),
      mo = Number(yyyymmdd.slice(4, 6)),
      d = Number(yyyymmdd.slice(6, 8));
    ref = berlinLocalToDate(y, mo, d, 12, 0, 0).getTime() - 12 * 3600_000;
    if (refByDay.size > 1000) refByDay.clear();
    refByDay.set(yyyymmdd, ref);
  }
  return ref;
}

/** Instant (epoch ms) of a GTFS time on a service day. */
export function gtfsInstantMs(yyyymmdd: string, seconds: number): number {
  return serviceDayRefMs(yyyymmdd) + seconds * 1000;
}

const berlinDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Berlin calendar date of an instant as YYYYMMDD. */
export function berlinDateOf(ms: number): string {
  return berlinDate.format(new Date(ms)).replace(/-/g, '');
}

/** YYYYMMDD plus `n` calendar days. */
export function addDays(yyyymmdd: string, n: number): string {
  const d = new Date(Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)) + n));
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

export function isServiceDate(s: string | null | undefined): s is string {
  return !!s && /^\d{8}$/.test(s);
}

/**
 * The service day a trip runs on when the feed does not name it: of today and yesterday (trips
 * after midnight belong to the previous service day), the one whose schedule window
 * [first, last] lies nearest to `nowMs`.
 */
export function pickServiceDay(nowMs: number, firstS: number, lastS: number): string {
  const today = berlinDateOf(nowMs);
  let best = today;
  let bestDist = Infinity;
  for (const day of [today, addDays(today, -1), addDays(today, 1)]) {
    const ref = serviceDayRefMs(day);
    const a = ref + firstS * 1000,
      b = ref + lastS * 1000;
    const dist = nowMs < a ? a - nowMs : nowMs > b ? nowMs - b : 0;
    if (dist < bestDist) {
      bestDist = dist;
      best = day;
    }
  }
  return best;
}
