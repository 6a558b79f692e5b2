import type { SourceDecl } from '../../core/source.ts';

/**
 * ParkAPI v3 as MobiData BW runs it (keyless): parking sites of the sources the
 * parkapi-sources-v3 converters read, each with its source uid. Only sources with a stated open
 * licence are asked for (see sites.ts), and each site names that source and its licence.
 */
export const PARKAPI_V3: SourceDecl = {
  id: 'parkapi-v3',
  name: 'ParkAPI v3 (MobiData BW)',
  env: 'PARKAPI_V3',
  baseUrl: 'https://api.mobidata-bw.de/park-api/api/public/v3',
  license: 'per source: DL-DE/BY 2.0 or CC BY 4.0 (see each site)',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution:
    'MobiData BW (NVBW) ParkAPI v3, with the cities whose feeds it reads (Stuttgart, Karlsruhe, Freiburg im Breisgau, Heidelberg); each site names its source and licence',
  timeoutMs: 10000,
  // One source's sites: a few hundred items at most.
  maxResponseBytes: 4 * 1024 * 1024,
};
