import type { Holiday } from '../../core/records/city-base.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const optText = z.string().nullish();
const texts = z.array(z.looseObject({ language: optText, text: optText }).nullish()).nullish();

/** One entry of /PublicHolidays or /SchoolHolidays (OpenHolidays OpenAPI `HolidayResponse`); only the start day is required. */
const HolidayShape = z.looseObject({
  id: optText,
  startDate: z.string().regex(DAY, 'not a YYYY-MM-DD day'),
  endDate: optText,
  name: texts,
  regionalScope: optText,
  temporalScope: optText,
  nationwide: z.boolean().nullish(),
  subdivisions: z.array(z.looseObject({ code: optText }).nullish()).nullish(),
  comment: texts,
});
type OpenHoliday = z.output<typeof HolidayShape>;
/** The body is a JSON array of holidays; anything else is a broken answer. */
const HolidayListShape = z.array(HolidayShape);

const SCOPES: Record<string, Holiday['scope']> = { National: 'national', Regional: 'regional', Local: 'local' };

function german(texts: OpenHoliday['comment']): string | null {
  if (!Array.isArray(texts) || texts.length === 0) return null;
  const t = texts.find((x) => x?.language === 'DE') ?? texts[0];
  return typeof t?.text === 'string' && t.text.trim() !== '' ? t.text.trim() : null;
}

function parseHoliday(h: OpenHoliday): Holiday {
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

export function parseHolidayList(body: unknown): Holiday[] {
  return shaped(HolidayListShape, body, 'OpenHolidays').map(parseHoliday);
}

/**
 * Whether a holiday applies in the city: nationwide ones, those of its state, and local ones
 * only for the parts of the state the city lies in (Augsburg's Peace Festival is DE-BY-AU).
 */
export function appliesTo(h: Holiday, stateCode: string, localCodes: readonly string[]): boolean {
  if (h.nationwide) return true;
  return h.subdivisions.some((c) => c === stateCode || localCodes.includes(c));
}
