import type { SourceDecl } from '../../core/source.ts';

/**
 * INKAR (Indikatoren und Karten zur Raum- und Stadtentwicklung) of the BBSR: no API, one bulk
 * ZIP per edition (`inkar_{year}.zip`, about 414 MB for 2025) holding one long-format CSV of all
 * indicators, spatial levels and years. Read by a precompute job only, never on a request.
 */
export const INKAR: SourceDecl = {
  id: 'inkar',
  name: 'INKAR (BBSR)',
  env: 'INKAR',
  baseUrl: 'https://www.bbr-server.de/imagemap/inkar/download',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'INKAR, Bundesinstitut für Bau-, Stadt- und Raumforschung (BBSR) im Bundesamt für Bauwesen und Raumordnung, Bonn',
  modified: true,
  // The whole edition in one download.
  timeoutMs: 1_800_000,
  maxResponseBytes: 640 * 1024 * 1024,
};
