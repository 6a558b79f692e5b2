import type { SourceDecl } from '../../core/source.ts';

/** Bertelsmann Stiftung's Wegweiser Kommune data API (keyless; OpenAPI 3.0.3 v2.9.2). */
export const WEGWEISER: SourceDecl = {
  id: 'wegweiser-kommune',
  name: 'Wegweiser Kommune (Bertelsmann Stiftung)',
  env: 'WEGWEISER',
  baseUrl: 'https://www.wegweiser-kommune.de/data-api',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Bertelsmann Stiftung / wegweiser-kommune.de',
  timeoutMs: 15000,
  // Indicator values for one municipality are a few KB.
  maxResponseBytes: 4 * 1024 * 1024,
};
