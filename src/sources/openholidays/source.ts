import type { SourceDecl } from '../../core/source.ts';

/** OpenHolidays API: public and school holidays of European countries and their subdivisions (ODbL). */
export const OPENHOLIDAYS: SourceDecl = {
  id: 'openholidays',
  name: 'OpenHolidays API',
  env: 'OPENHOLIDAYS',
  baseUrl: 'https://openholidaysapi.org',
  urls: {
    nager: {
      env: 'NAGER_DATE_BASE_URL',
      default: 'https://date.nager.at/api/v3',
      description: 'Nager.Date API (MIT), fallback for public holidays when OpenHolidays fails',
    },
  },
  license: 'ODbL-1.0',
  licenseUrl: 'https://opendatacommons.org/licenses/odbl/1-0/',
  tier: 'B',
  attribution: 'Feiertage und Ferien: OpenHolidays API (openholidaysapi.org), ODbL',
  timeoutMs: 10000,
  // Two years of one state are about 20 kB.
  maxResponseBytes: 2 * 1024 * 1024,
};
