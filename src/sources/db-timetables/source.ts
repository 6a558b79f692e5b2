import type { SourceDecl } from '../../core/source.ts';
import { dbMarketplace } from '../db-marketplace.ts';

/** DB Timetables v1 on the DB API Marketplace (plan + changes XML per EVA). */
export const DB_TIMETABLES: SourceDecl = {
  id: 'db-timetables',
  name: 'DB Timetables (Deutsche Bahn)',
  env: 'DB_TIMETABLES',
  baseUrl: 'https://apis.deutschebahn.com/db-api-marketplace/apis/timetables/v1',
  ...dbMarketplace(
    'Timetables',
    'create an application, subscribe it to {plan}; its Client ID goes into DB_CLIENT_ID, its API key into DB_API_KEY (the same pair serves DB StaDa).',
  ),
  attribution: 'Deutsche Bahn AG, DB Timetables API (CC BY 4.0)',
  modified: true,
  // The Marketplace plan allows 60 calls a minute per application, shared by every instance.
  ratePerMinute: 60,
  timeoutMs: 8000,
  maxResponseBytes: 4 * 1024 * 1024,
};
