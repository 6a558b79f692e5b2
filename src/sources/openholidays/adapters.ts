import type { Adapter } from '../../core/data-type.ts';
import type { HolidaysRecord } from '../../core/records/city-base.ts';
import { toBerlinIso } from '../../core/time.ts';
import type { SourceHttp } from '../../core/adapter-http.ts';
import type { City } from '../../cities/register.ts';
import { localSubdivisionsOf, partialStateHolidaysOf, type PartialStateVerdict } from '../../cities/local-holidays.ts';
import { appliesTo, parseHolidayList } from './parse.ts';
import { NAGER, parseNager } from './nager.ts';
import { afterEaster } from './easter.ts';

type Holiday = HolidaysRecord['public_holidays'][number];

/**
 * Partial-state holidays (src/cities/local-holidays.json) that apply in the city, for the given
 * years, unless the source already lists them on that day. OpenHolidays does not list them for
 * the state at all (e.g. Corpus Christi for DE-SN and DE-TH), so their day is derived from Easter.
 */
export function partialStateHolidays(verdicts: readonly PartialStateVerdict[], years: number[], listed: readonly Holiday[]): Holiday[] {
  const out: Holiday[] = [];
  for (const { holiday, applies } of verdicts) {
    if (!applies) continue;
    for (const y of years) {
      const day = afterEaster(y, holiday.easter_offset_days);
      if (listed.some((h) => h.start === day && h.name === holiday.name)) continue;
      out.push({
        id: null,
        name: holiday.name,
        start: day,
        end: day,
        scope: 'local',
        nationwide: false,
        half_day: false,
        subdivisions: [],
        note: holiday.rule,
      });
    }
  }
  return out;
}

/** meta.local: which local subdivision was applied, and which partial-state holidays were (not) and why. */
function localMeta(city: City, stateCode: string, subdivisions: ReturnType<typeof localSubdivisionsOf>, verdicts: readonly PartialStateVerdict[]) {
  return {
    subdivisions: subdivisions.map((s) => ({ code: s.code, name: s.name, category: s.category })),
    partial_state_holidays: verdicts.map((v) => ({ name: v.holiday.name, applies: v.applies, rule: v.holiday.rule, reason: v.reason })),
    note: subdivisions.length
      ? `local public holidays of ${subdivisions.map((s) => `${s.code} (${s.name})`).join(', ')} included`
      : `no OpenHolidays subdivision below ${stateCode} covers ${city.name}: only nationwide and state-wide public holidays apply` +
        (verdicts.some((v) => v.applies) ? ', plus the partial-state holidays marked applies' : ''),
  };
}

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
  const subdivisions = localSubdivisionsOf(city);
  const localCodes = subdivisions.map((s) => s.code);
  const verdicts = partialStateHolidaysOf(city);
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
      note: 'public holidays only; no school holidays and no holidays of OpenHolidays subdivisions below the state',
    };
  }
  lists.public_holidays = [...lists.public_holidays, ...partialStateHolidays(verdicts, [year, year + 1], lists.public_holidays)].sort(byStart);
  const local = localMeta(city, stateCode, subdivisions, verdicts);
  const data: HolidaysRecord = {
    subdivision_code: stateCode,
    local_subdivision_codes: [...localCodes],
    valid_from: query.validFrom,
    valid_to: query.validTo,
    source,
    ...lists,
  };
  if (data.public_holidays.length === 0 && data.school_holidays.length === 0) {
    return {
      data: null,
      status: 'no_data',
      meta: { reason: `no holidays known for ${stateCode} in ${year}-${year + 1}`, local, ...(fallback ? { fallback } : {}) },
    };
  }
  return { data, meta: { local, ...(fallback ? { fallback } : {}) } };
};
