import type { SourceDecl } from '../../core/source.ts';

/** SMARD, the electricity market data platform of the Bundesnetzagentur: keyless chart data files. */
export const SMARD: SourceDecl = {
  id: 'smard',
  name: 'Bundesnetzagentur (SMARD.de)',
  env: 'SMARD',
  baseUrl: 'https://www.smard.de/app/chart_data',
  license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
  tier: 'A',
  attribution: 'Bundesnetzagentur | SMARD.de',
  modified: true,
  timeoutMs: 10000,
  // A weekly block of quarter hours is about 30 kB; the index lists every block since 2015.
  maxResponseBytes: 4 * 1024 * 1024,
};
