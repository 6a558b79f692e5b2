import type { Adapter } from '../../core/data-type.ts';
import type { HolidaysRecord } from '../../core/records/city-base.ts';
import { toBerlinIso } from '../../core/time.ts';
import { appliesTo, parseHolidayList } from './parse.ts';

/**
 * OpenHolidays subdivisions below state level that are cities of the register (their local
 * public holidays apply in the whole city). The API returns them with `regionalScope: Local`
 * when asked for the state.
 */
export const LOCAL_SUBDIVISIONS: Readonly<Record<string, readonly string[]>> = {
  augsburg: ['DE-BY-AU'],
};

const byStart = (a: { start: string | null }, b: { start: string | null }) => (a.start ?? '').localeCompare(b.start ?? '');

/** Public and school holidays of the city's state for the current and the next calendar year. */
export const holidays: Adapter<HolidaysRecord> = async ({ city, http, now }) => {
  const year = Number(toBerlinIso(now).slice(0, 4));
  const stateCode = `DE-${city.state}`;
  const localCodes = LOCAL_SUBDIVISIONS[city.slug] ?? [];
  const query = { countryIsoCode: 'DE', subdivisionCode: stateCode, validFrom: `${year}-01-01`, validTo: `${year + 1}-12-31`, languageIsoCode: 'DE' };
  const [pub, school] = await Promise.all([
    http.json<unknown>('/PublicHolidays', { query, headers: { accept: 'application/json' } }),
    http.json<unknown>('/SchoolHolidays', { query, headers: { accept: 'application/json' } }),
  ]);
  const public_holidays = parseHolidayList(pub)
    .filter((h) => appliesTo(h, stateCode, localCodes))
    .sort(byStart);
  const school_holidays = parseHolidayList(school)
    .filter((h) => appliesTo(h, stateCode, localCodes))
    .sort(byStart);
  const data: HolidaysRecord = {
    subdivision_code: stateCode,
    local_subdivision_codes: [...localCodes],
    valid_from: query.validFrom,
    valid_to: query.validTo,
    public_holidays,
    school_holidays,
  };
  if (public_holidays.length === 0 && school_holidays.length === 0) {
    return { data: null, status: 'no_data', meta: { reason: `OpenHolidays has no holidays for ${stateCode} in ${year}-${year + 1}` } };
  }
  return { data };
};
