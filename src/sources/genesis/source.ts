import type { SourceDecl } from '../../core/source.ts';

/**
 * Regionaldatenbank Deutschland (GENESIS REST 2020). Every call needs a free account; the
 * credentials travel as `username`/`password` headers, never in the URL.
 */
export const GENESIS: SourceDecl = {
  id: 'genesis-regionalstatistik',
  name: 'Regionaldatenbank Deutschland (GENESIS)',
  env: 'GENESIS',
  baseUrl: 'https://www.regionalstatistik.de/genesisws/rest/2020',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution:
    '© Statistische Ämter des Bundes und der Länder, Deutschland (Regionaldatenbank Deutschland), Datenlizenz Deutschland – Namensnennung – Version 2.0',
  modified: false,
  credentials: ['GENESIS_USERNAME', 'GENESIS_PASSWORD'],
  registration: {
    url: 'https://www.regionalstatistik.de/genesis/online',
    free: true,
    note: 'Regionaldatenbank Deutschland: register a free user account ("Registrierung"); user name into GENESIS_USERNAME, password into GENESIS_PASSWORD.',
  },
  // Whole-table answers take seconds on the server; the portal serves about ten parallel requests per account.
  timeoutMs: 30_000,
  // One table for all districts, zipped or flat CSV, is a few MB.
  maxResponseBytes: 16 * 1024 * 1024,
  ratePerMinute: 120,
  breaker: { threshold: 5, cooldownSeconds: 120 },
};
