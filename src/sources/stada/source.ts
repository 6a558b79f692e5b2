import type { SourceDecl } from '../../core/source.ts';

/**
 * DB Station Data (StaDa) v2 on the DB API Marketplace. The credentials are the marketplace
 * application's client id and API key, shared with the other DB Marketplace APIs (Timetables).
 */
export const STADA: SourceDecl = {
  id: 'db-stada',
  name: 'DB Station Data (StaDa)',
  env: 'STADA',
  baseUrl: 'https://apis.deutschebahn.com/db-api-marketplace/apis/station-data/v2',
  license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
  tier: 'A',
  attribution: 'Deutsche Bahn AG / DB InfraGO AG, CC BY 4.0',
  publishedLimit: {
    perHour: 60 * 60,
    text: '60 requests/min per application (DB API Marketplace plan)',
    ref: 'research/upstreams-transport.md (DB Timetables)',
  },
  credentials: ['DB_CLIENT_ID', 'DB_API_KEY'],
  registration: {
    url: 'https://developers.deutschebahn.com/db-api-marketplace/apis/',
    free: true,
    note: 'DB API Marketplace: subscribe the same application to the free plan of "StaDa - Station Data"; DB_CLIENT_ID and DB_API_KEY as for DB Timetables.',
  },
  // The national list (~5,400 stations, ~8 MB) takes over ten seconds to arrive.
  timeoutMs: 30_000,
  // The national station list (about 5,400 stations) in one page.
  maxResponseBytes: 32 * 1024 * 1024,
};
