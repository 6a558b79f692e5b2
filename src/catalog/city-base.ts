import { dataType, type DataType } from '../core/data-type.ts';
import { HolidaysRecord } from '../core/records/city-base.ts';
import { OPENHOLIDAYS } from '../sources/openholidays/source.ts';
import { LOCAL_SUBDIVISIONS, holidays } from '../sources/openholidays/adapters.ts';

const localNote = Object.entries(LOCAL_SUBDIVISIONS)
  .map(([slug, codes]) => `${slug} (${codes.join(', ')})`)
  .join(', ');

/** City and base data: declarations only (adapters live in their source modules). */
export const CITY_BASE_TYPES: DataType[] = [
  dataType({
    type: 'holidays',
    label: 'Feiertage und Ferien',
    label_en: 'Public and school holidays',
    group: 'city',
    summary: 'Public holidays that apply in the city and school holidays of its state, current and next year',
    description:
      "From the OpenHolidays API for the city's state (subdivision DE-XX), 1 January of the current year to 31 December of the next. " +
      'Public holidays are those valid nationwide or in the state, plus local holidays of the part of the state the city lies in where ' +
      `OpenHolidays knows one: ${localNote}. Regional holidays that apply only in some municipalities of a state (e.g. Mariä Himmelfahrt ` +
      "in Bavaria's predominantly Catholic municipalities) are listed with the source's remark in `note`. Dates are calendar days (YYYY-MM-DD).",
    source: OPENHOLIDAYS,
    record: HolidaysRecord,
    cache: { freshSeconds: 86400, staleSeconds: 7 * 86400 },
    example: { city: 'augsburg' },
    adapter: holidays,
  }),
];
