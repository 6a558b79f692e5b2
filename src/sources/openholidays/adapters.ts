import type { Adapter } from '../../core/data-type.ts';
import type { HolidaysRecord } from '../../core/records/city-base.ts';
import { toBerlinIso } from '../../core/time.ts';
import type { SourceHttp } from '../../core/source-http.ts';
import { appliesTo, parseHolidayList } from './parse.ts';
import { NAGER, parseNager } from './nager.ts';

/**
 * OpenHolidays subdivisions below state level that are cities of the register (their local
 * public holidays apply in the whole city). The API returns them with `regionalScope: Local`
 * when asked for the state.
 */
export const LOCAL_SUBDIVISIONS: Readonly<Record<string, readonly string[]>> = {
  augsburg: ['DE-BY-AU'],
};

const byStart = (a: { start: string | null }, b: { start: string | null }) => (a.start ?? '').localeCompare(b.start ?? '');

interface Lists {
  public_holidays: HolidaysRecord['public_holidays'];
  school_holidays: HolidaysRecord['school_holidays'];
}

async function fromOpenHolidays(http: SourceHttp, query: Record<string, string>, keep: (h: Lists['public_holidays'][number]) => boolean): Promise<Lists> {
  const [pub, school] = await Promise.all([http.json<unknown>('/PublicHolidays', { query }), http.json<unknown>('/SchoolHolidays', { query })]);
  return { public_holidays: parseHolidayList(pub).filter(keep).sort(byStart), school_holidays: parseHolidayList(school).filter(keep).sort(byStart) };
}

/** Nager.Date knows public holidays only (no school holidays, no local ones). */
async function fromNager(http: SourceHttp, years: number[], keep: (h: Lists['public_holidays'][number]) => boolean): Promise<Lists> {
  const lists = await Promise.all(years.map((y) => http.json<unknown>('/PublicHolidays/{year}/DE', { base: http.url('nager'), params: { year: y } })));
  return { public_holidays: lists.flatMap(parseNager).filter(keep).sort(byStart), school_holidays: [] };
}

/**
 * Public and school holidays of the city's state for the current and the next calendar year
 * from OpenHolidays; when OpenHolidays fails, public holidays from Nager.Date (meta.fallback).
 */
export const holidays: Adapter<HolidaysRecord> = async ({ city, http, now }) => {
  const year = Number(toBerlinIso(now).slice(0, 4));
  const stateCode = `DE-${city.state}`;
  const localCodes = LOCAL_SUBDIVISIONS[city.slug] ?? [];
  const keep = (h: Lists['public_holidays'][number]) => appliesTo(h, stateCode, localCodes);
  const query = { countryIsoCode: 'DE', subdivisionCode: stateCode, validFrom: `${year}-01-01`, validTo: `${year + 1}-12-31`, languageIsoCode: 'DE' };
  let lists: Lists;
  let source: HolidaysRecord['source'] = 'openholidays';
  let fallback: Record<string, unknown> | undefined;
  try {
    lists = await fromOpenHolidays(http, query, keep);
  } catch (err) {
    // The fallback's own failure is the answer's failure (503 or stale), not OpenHolidays'.
    lists = await fromNager(http, [year, year + 1], keep);
    source = 'nager-date';
    fallback = {
      ...NAGER,
      reason: `OpenHolidays failed: ${err instanceof Error ? err.message.slice(0, 120) : 'error'}`,
      note: 'public holidays only; no school or local holidays',
    };
  }
  const data: HolidaysRecord = {
    subdivision_code: stateCode,
    local_subdivision_codes: [...localCodes],
    valid_from: query.validFrom,
    valid_to: query.validTo,
    source,
    ...lists,
  };
  if (data.public_holidays.length === 0 && data.school_holidays.length === 0) {
    return { data: null, status: 'no_data', meta: { reason: `no holidays known for ${stateCode} in ${year}-${year + 1}`, ...(fallback ? { fallback } : {}) } };
  }
  return { data, ...(fallback ? { meta: { fallback } } : {}) };
};
