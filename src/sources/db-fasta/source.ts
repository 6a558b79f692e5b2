import type { SourceDecl } from '../../core/source.ts';
import { dbMarketplace } from '../db-marketplace.ts';

/** DB Facility Status (FaSta) v2 on the DB API Marketplace: elevators and escalators of DB stations with their state. */
export const DB_FASTA: SourceDecl = {
  id: 'db-fasta',
  name: 'DB Facility Status (FaSta)',
  env: 'DB_FASTA',
  baseUrl: 'https://apis.deutschebahn.com/db-api-marketplace/apis/fasta/v2',
  ...dbMarketplace('FaSta - Station Facilities Status', 'subscribe the same application to {plan}; DB_CLIENT_ID and DB_API_KEY as for DB Timetables.'),
  attribution: 'Deutsche Bahn AG / DB InfraGO AG, FaSta, CC BY 4.0',
  timeoutMs: 20_000,
  // The national list of elevators and escalators: a few thousand items, about 1-2 MB.
  maxResponseBytes: 16 * 1024 * 1024,
  // DB's free plan allows 60 calls a minute per application.
  ratePerMinute: 60,
};
