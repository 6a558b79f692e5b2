import type { Adapter, AdapterResult } from '../../core/data-type.ts';
import type { HolidaysRecord } from '../../core/records/city-base.ts';
import { toBerlinIso } from '../../core/time.ts';
import type { City } from '../../cities/register.ts';
import { localSubdivisionsOf, partialStateHolidaysOf, type PartialStateVerdict } from '../../cities/local-holidays.ts';
import { appliesTo, parseHolidayList } from './parse.ts';
import { parseNager } from './nager.ts';
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

/** One year pair of holidays for the city, with what the holiday lists need to know of it. */
interface Request {
  year: number;
  stateCode: string;
  subdivisions: ReturnType<typeof localSubdivisionsOf>;
  verdicts: readonly PartialStateVerdict[];
  query: { countryIsoCode: string; subdivisionCode: string; validFrom: string; validTo: string; languageIsoCode: string };
  keep: (h: Lists['public_holidays'][number]) => boolean;
}

function requestOf(city: City, now: Date): Request {
  const year = Number(toBerlinIso(now).slice(0, 4));
  const stateCode = `DE-${city.state}`;
  const subdivisions = localSubdivisionsOf(city);
  const localCodes = subdivisions.map((s) => s.code);
  const query = { countryIsoCode: 'DE', subdivisionCode: stateCode, validFrom: `${year}-01-01`, validTo: `${year + 1}-12-31`, languageIsoCode: 'DE' };
  return { year, stateCode, subdivisions, verdicts: partialStateHolidaysOf(city), query, keep: (h) => appliesTo(h, stateCode, localCodes) };
}

/**
 * Public and school holidays of the city's state for the current and the next calendar year
 * from OpenHolidays. While it fails, the type's failover (nagerHolidays) answers.
 */
export const holidays: Adapter<HolidaysRecord> = async ({ city, http, now }) => {
  const q = requestOf(city, now);
  const [pub, school] = await Promise.all([
    http.json<unknown>('/PublicHolidays', { query: q.query }),
    http.json<unknown>('/SchoolHolidays', { query: q.query }),
  ]);
  return answer(city, q, 'openholidays', {
    public_holidays: parseHolidayList(pub).filter(q.keep).sort(byStart),
    school_holidays: parseHolidayList(school).filter(q.keep).sort(byStart),
  });
};

/** Public holidays of the city's state from Nager.Date, which knows public holidays only (no school holidays, no local ones). */
export const nagerHolidays: Adapter<HolidaysRecord> = async ({ city, http, now }) => {
  const q = requestOf(city, now);
  const lists = await Promise.all([q.year, q.year + 1].map((y) => http.json<unknown>('/PublicHolidays/{year}/DE', { params: { year: y } })));
  return answer(city, q, 'nager-date', { public_holidays: lists.flatMap(parseNager).filter(q.keep).sort(byStart), school_holidays: [] });
};

/** The record from either source's lists, with the partial-state holidays added (meta.local says which). */
function answer(city: City, q: Request, source: HolidaysRecord['source'], lists: Lists): AdapterResult<HolidaysRecord> {
  const { year, stateCode, subdivisions, verdicts, query } = q;
  const localCodes = subdivisions.map((s) => s.code);
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
      meta: { reason: `no holidays known for ${stateCode} in ${year}-${year + 1}`, local },
    };
  }
  return { data, meta: { local } };
}
