import type { SourceDecl } from '../../core/source.ts';

/**
 * PEGELONLINE, the gauge service of the federal waterways administration (WSV): REST API v2,
 * keyless, no published rate limit. Only federal waterways are covered.
 */
export const PEGELONLINE: SourceDecl = {
  id: 'pegelonline',
  name: 'PEGELONLINE (Wasserstraßen- und Schifffahrtsverwaltung des Bundes)',
  env: 'PEGELONLINE',
  baseUrl: 'https://www.pegelonline.wsv.de/webservices/rest-api/v2',
  license: 'dl-de/zero-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/zero-2-0',
  tier: 'A',
  attribution: 'PEGELONLINE, Wasserstraßen- und Schifffahrtsverwaltung des Bundes (WSV)',
  publishedLimit: {
    perHour: null,
    text: 'no API limit currently',
    ref: 'research/upstreams-env.md (PEGELONLINE)',
  },
  timeoutMs: 10000,
  // A radius query with time series is tens of KB; one time series a few KB.
  maxResponseBytes: 4 * 1024 * 1024,
};
