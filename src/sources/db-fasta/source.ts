import type { SourceDecl } from '../../core/source.ts';

/** DB Facility Status (FaSta) v2 on the DB API Marketplace: elevators and escalators of DB stations with their state. */
export const DB_FASTA: SourceDecl = {
  id: 'db-fasta',
  name: 'DB Facility Status (FaSta)',
  env: 'DB_FASTA',
  baseUrl: 'https://apis.deutschebahn.com/db-api-marketplace/apis/fasta/v2',
  license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
  tier: 'A',
  attribution: 'Deutsche Bahn AG / DB InfraGO AG, FaSta, CC BY 4.0',
  publishedLimit: {
    perHour: 60 * 60,
    text: '60 requests/min per application (DB API Marketplace plan)',
    ref: 'research/upstreams-transport.md (DB Timetables)',
  },
  // The same marketplace application as StaDa and Timetables.
  credentials: ['DB_CLIENT_ID', 'DB_API_KEY'],
  registration: {
    url: 'https://developers.deutschebahn.com/db-api-marketplace/apis/',
    free: true,
    note: 'DB API Marketplace: subscribe the same application to the free plan of "FaSta - Station Facilities Status"; DB_CLIENT_ID and DB_API_KEY as for DB Timetables.',
  },
  timeoutMs: 20_000,
  // The national list of elevators and escalators: a few thousand items, about 1-2 MB.
  maxResponseBytes: 16 * 1024 * 1024,
  // DB's free plan allows 60 calls a minute per application.
  ratePerMinute: 60,
};
