import type { SourceDecl } from '../../core/source.ts';

/** DB Timetables v1 on the DB API Marketplace (plan + changes XML per EVA). */
export const DB_TIMETABLES: SourceDecl = {
  id: 'db-timetables',
  name: 'DB Timetables (Deutsche Bahn)',
  env: 'DB_TIMETABLES',
  baseUrl: 'https://apis.deutschebahn.com/db-api-marketplace/apis/timetables/v1',
  license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
  tier: 'A',
  attribution: 'Deutsche Bahn AG, DB Timetables API (CC BY 4.0)',
  publishedLimit: {
    perHour: 60 * 60,
    text: '60 requests/min per application (DB API Marketplace plan)',
    ref: 'research/upstreams-transport.md (DB Timetables)',
  },
  modified: true,
  credentials: ['DB_CLIENT_ID', 'DB_API_KEY'],
  registration: {
    url: 'https://developers.deutschebahn.com/db-api-marketplace/apis/',
    free: true,
    note: 'DB API Marketplace: create an application, subscribe it to the free plan of "Timetables"; its Client ID goes into DB_CLIENT_ID, its API key into DB_API_KEY (the same pair serves DB StaDa).',
  },
  // The Marketplace plan allows 60 calls a minute per application, shared by every instance.
  ratePerMinute: 60,
  timeoutMs: 8000,
  maxResponseBytes: 4 * 1024 * 1024,
};
