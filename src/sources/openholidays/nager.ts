import type { Holiday } from '../../core/records/city-base.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** Nager.Date `/PublicHolidays/{year}/DE` entry (public holidays only; `counties` are ISO 3166-2 state codes). */
export interface NagerHoliday {
  date?: string;
  localName?: string;
  name?: string;
  global?: boolean;
  counties?: string[] | null;
  types?: string[];
}

/** Nager's holidays in the record's shape: single days, nationwide (`global`) or for the listed states. */
export function parseNager(body: unknown): Holiday[] {
  if (!Array.isArray(body)) throw new UpstreamError('parse', 'Nager.Date answer is not a list');
  return (body as NagerHoliday[])
    .filter((h) => typeof h?.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(h.date) && (!h.types || h.types.includes('Public')))
    .map((h) => ({
      id: null,
      name: typeof h.localName === 'string' ? h.localName : (h.name ?? null),
      start: h.date!,
      end: h.date!,
      scope: h.global ? 'national' : 'regional',
      nationwide: h.global === true,
      half_day: null,
      subdivisions: Array.isArray(h.counties) ? h.counties.filter((c) => typeof c === 'string') : [],
      note: null,
    }));
}
