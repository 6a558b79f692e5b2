import type { SourceDecl } from '../../core/source.ts';
import { dbMarketplace } from '../db-marketplace.ts';

/**
 * DB Station Data (StaDa) v2 on the DB API Marketplace. The credentials are the marketplace
 * application's client id and API key, shared with the other DB Marketplace APIs (Timetables).
 */
export const STADA: SourceDecl = {
  id: 'db-stada',
  name: 'DB Station Data (StaDa)',
  env: 'STADA',
  baseUrl: 'https://apis.deutschebahn.com/db-api-marketplace/apis/station-data/v2',
  ...dbMarketplace('StaDa - Station Data', 'subscribe the same application to {plan}; DB_CLIENT_ID and DB_API_KEY as for DB Timetables.'),
  attribution: 'Deutsche Bahn AG / DB InfraGO AG, CC BY 4.0',
  // The national list (~5,400 stations, ~8 MB) takes over ten seconds to arrive.
  timeoutMs: 30_000,
  // The national station list (about 5,400 stations) in one page.
  maxResponseBytes: 32 * 1024 * 1024,
};
