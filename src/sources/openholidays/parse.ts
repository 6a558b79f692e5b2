import type { Holiday } from '../../core/records/city-base.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** One entry of /PublicHolidays or /SchoolHolidays (OpenHolidays OpenAPI `HolidayResponse`). */
export interface OpenHoliday {
  id?: string;
  startDate?: string;
  endDate?: string;
  type?: string;
  name?: { language?: string; text?: string }[];
  regionalScope?: string;
  temporalScope?: string;
  nationwide?: boolean;
  subdivisions?: { code?: string; shortName?: string }[];
  comment?: { language?: string; text?: string }[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const SCOPES: Record<string, Holiday['scope']> = { National: 'national', Regional: 'regional', Local: 'local' };

function german(texts: { language?: string; text?: string }[] | undefined): string | null {
  if (!Array.isArray(texts) || texts.length === 0) return null;
  const t = texts.find((x) => x?.language === 'DE') ?? texts[0];
  return typeof t?.text === 'string' && t.text.trim() !== '' ? t.text.trim() : null;
}

export function parseHoliday(h: OpenHoliday): Holiday {
  if (typeof h?.startDate !== 'string' || !DAY.test(h.startDate)) throw new UpstreamError('parse', 'OpenHolidays entry without a valid startDate');
  const end = typeof h.endDate === 'string' && DAY.test(h.endDate) ? h.endDate : h.startDate;
  return {
    id: typeof h.id === 'string' ? h.id : null,
    name: german(h.name),
    start: h.startDate,
    end,
    scope: SCOPES[h.regionalScope ?? ''] ?? null,
    nationwide: typeof h.nationwide === 'boolean' ? h.nationwide : null,
    half_day: h.temporalScope === 'HalfDay' ? true : h.temporalScope === 'FullDay' ? false : null,
    subdivisions: (h.subdivisions ?? []).map((s) => s?.code).filter((c): c is string => typeof c === 'string'),
    note: german(h.comment),
  };
}

/** The body is a JSON array of holidays; anything else is a broken answer. */
export function parseHolidayList(body: unknown): Holiday[] {
  if (!Array.isArray(body)) throw new UpstreamError('parse', 'OpenHolidays answer is not a list');
  return body.map((h) => parseHoliday(h as OpenHoliday));
}

/**
 * Whether a holiday applies in the city: nationwide ones, those of its state, and local ones
 * only for the parts of the state the city lies in (Augsburg's Peace Festival is DE-BY-AU).
 */
export function appliesTo(h: Holiday, stateCode: string, localCodes: readonly string[]): boolean {
  if (h.nationwide) return true;
  return h.subdivisions.some((c) => c === stateCode || localCodes.includes(c));
}
