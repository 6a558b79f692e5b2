import type { SourceDecl } from '../../core/source.ts';

/** Stadt Köln's open-data feed of waiting times at its customer centres and the vehicle registration office. */
export const KOELN_WAITING: SourceDecl = {
  id: 'koeln-waiting-times',
  name: 'Stadt Köln: Wartezeiten der Kundenzentren',
  env: 'KOELN_WAITING',
  baseUrl: 'https://www.stadt-koeln.de/externe-dienste/open-data',
  license: 'dl-de/zero-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/zero-2-0',
  tier: 'A',
  attribution: 'Stadt Köln (Datenlizenz Deutschland – Zero – Version 2.0)',
  timeoutMs: 8000,
  maxResponseBytes: 1024 * 1024,
};
