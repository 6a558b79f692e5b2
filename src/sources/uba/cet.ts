import { fixedOffsetLocalToDate, toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** UBA times are naive CET: UTC+1 all year, no summer time. */
const CET_OFFSET_MINUTES = 60;

const UBA_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;
/** A UBA time as an answer carries it, checked where the answer is parsed. */
export const UbaTime = z.string().regex(UBA_TIME, 'not a UBA time');

/**
 * "YYYY-MM-DD HH:MM:SS" in CET to a zoned Berlin timestamp. UBA writes the end of the last
 * hour of a day as "24:00:00" of that day, which is 00:00 of the next day.
 */
export function ubaTimeToIso(s: string): string {
  const m = UBA_TIME.exec(String(s).trim());
  if (!m) throw new UpstreamError('parse', `UBA timestamp in an unknown format: ${String(s).slice(0, 40)}`);
  const num = (g: number) => Number(m[g]);
  const y = num(1),
    mo = num(2),
    d = num(3),
    h = num(4),
    mi = num(5),
    sec = num(6);
  if (h > 24 || (h === 24 && (mi !== 0 || sec !== 0))) throw new UpstreamError('parse', `UBA timestamp out of range: ${s}`);
  return toBerlinIso(fixedOffsetLocalToDate(y, mo, d, h, mi, sec, CET_OFFSET_MINUTES));
}

/** One request bound: UBA names an hour by its end, 1..24 in CET (24 = the hour ending at midnight). */
export interface UbaHour {
  date: string;
  hour: number;
}

/** The UBA hour whose end is `endInstant` (which should lie on a full hour). */
export function ubaHourEndingAt(endInstant: Date): UbaHour {
  const cet = new Date(endInstant.getTime() + CET_OFFSET_MINUTES * 60000);
  let hour = cet.getUTCHours();
  if (hour === 0) {
    cet.setUTCDate(cet.getUTCDate() - 1);
    hour = 24;
  }
  return { date: cet.toISOString().slice(0, 10), hour };
}

/**
 * Query bounds covering the last `hours` complete hours before `now`. The newest hour is
 * published with a lag of one to two hours, so the window must reach back several hours.
 */
export function recentWindow(now: Date, hours: number): { date_from: string; time_from: number; date_to: string; time_to: number } {
  const lastEnd = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
  const firstEnd = new Date(lastEnd.getTime() - (hours - 1) * 3_600_000);
  const from = ubaHourEndingAt(firstEnd);
  const to = ubaHourEndingAt(lastEnd);
  return { date_from: from.date, time_from: from.hour, date_to: to.date, time_to: to.hour };
}
