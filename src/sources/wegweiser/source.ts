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

/**
 * The same data API as the alternative source of `sustainability` (its topic "nachhaltigkeit"),
 * a source of its own so that it can stay off while the indicators type uses Wegweiser.
 */
export const WEGWEISER_SDG: SourceDecl = {
  ...WEGWEISER,
  id: 'wegweiser-kommune-sdg',
  name: 'Wegweiser Kommune / SDG-Portal (Bertelsmann Stiftung), SDG indicators',
  env: 'WEGWEISER_SDG',
  enabledByDefault: false,
  offReason:
    'the terms of use of the SDG indicators of Wegweiser Kommune / SDG-Portal (Bertelsmann Stiftung) are not verified; ' +
    'sustainability is answered from INKAR (BBSR, dl-de/by-2-0). Set WEGWEISER_SDG_ENABLED=true (with INKAR_ENABLED=false) once they are cleared.',
};
