import type { SourceDecl } from '../../core/source.ts';

/** OpenHolidays API: public and school holidays of European countries and their subdivisions (ODbL). */
export const OPENHOLIDAYS: SourceDecl = {
  id: 'openholidays',
  name: 'OpenHolidays API',
  env: 'OPENHOLIDAYS',
  baseUrl: 'https://openholidaysapi.org',
  license: 'ODbL-1.0',
  licenseUrl: 'https://opendatacommons.org/licenses/odbl/1-0/',
  tier: 'B',
  attribution: 'Feiertage und Ferien: OpenHolidays API (openholidaysapi.org), ODbL',
  timeoutMs: 10000,
  // Two years of one state are about 20 kB.
  maxResponseBytes: 2 * 1024 * 1024,
};

/** Nager.Date: public holidays per country and year (MIT); the holidays type's failover while OpenHolidays fails. */
export const NAGER_DATE: SourceDecl = {
  id: 'nager-date',
  name: 'Nager.Date',
  env: 'NAGER_DATE',
  baseUrl: 'https://date.nager.at/api/v3',
  license: 'MIT',
  licenseUrl: 'https://github.com/nager/Nager.Date/blob/main/LICENSE.md',
  tier: 'A',
  attribution: 'Feiertage: Nager.Date (date.nager.at), MIT',
  timeoutMs: 10000,
  // One year of one country is about 5 kB.
  maxResponseBytes: 1024 * 1024,
};
