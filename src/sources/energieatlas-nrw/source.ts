import type { SourceDecl } from '../../core/source.ts';

/**
 * Energieatlas NRW (LANUK): installed photovoltaics per municipality, derived from the
 * Marktstammdatenregister, one JSON file per reference year. The only state source of this kind
 * with an open licence found so far; other states' cities are not covered.
 */
export const ENERGIEATLAS_NRW: SourceDecl = {
  id: 'energieatlas-nrw',
  name: 'Energieatlas NRW (LANUK)',
  env: 'ENERGIEATLAS_NRW',
  baseUrl: 'https://www.daten.energieatlas.nrw.de/fme_processed/solar/gem',
  license: 'dl-de/zero-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/zero-2-0',
  tier: 'A',
  attribution: 'Energieatlas NRW, LANUK (Datenbasis: Marktstammdatenregister der Bundesnetzagentur)',
  timeoutMs: 30000,
  // One year for all 396 municipalities of NRW: about 1 MB.
  maxResponseBytes: 16 * 1024 * 1024,
};
