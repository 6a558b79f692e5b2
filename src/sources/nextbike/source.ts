import type { SourceDecl } from '../../core/source.ts';

/** nextbike's public GBFS v2 feeds (one system per city or region), keyless. */
export const NEXTBIKE_GBFS: SourceDecl = {
  id: 'nextbike-gbfs',
  name: 'nextbike GBFS',
  env: 'NEXTBIKE_GBFS',
  baseUrl: 'https://gbfs.nextbike.net/maps/gbfs/v2',
  // Each feed states its own licence in system_information; nextbike's is CC0 1.0.
  license: 'CC0-1.0 (per system, as system_information states it)',
  licenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
  tier: 'A',
  attribution: 'nextbike GmbH, GBFS feeds',
  timeoutMs: 10000,
  // A large system's free_bike_status (Berlin: several thousand bikes) stays under a few MB.
  maxResponseBytes: 16 * 1024 * 1024,
};

/** nextbike system codes (`nextbike_{code}`) of the register cities (research/upstreams-transport.md §13). */
export const NEXTBIKE_SYSTEMS: Readonly<Record<string, string>> = {
  berlin: 'bn',
  muenchen: 'ml',
  koeln: 'kg',
  'frankfurt-am-main': 'ff',
  duesseldorf: 'dd',
  dresden: 'dx',
  leipzig: 'le',
  hannover: 'dh',
  nuernberg: 'dv',
  bremen: 'bq',
  braunschweig: 'dn',
  'freiburg-im-breisgau': 'df',
  karlsruhe: 'fg',
  aachen: 'an',
  kassel: 'dk',
  wiesbaden: 'wn',
  oldenburg: 'wo',
  potsdam: 'dc',
  bielefeld: 'dg',
  moenchengladbach: 'sn',
  mannheim: 'vn',
  heidelberg: 'vn',
  'ludwigshafen-am-rhein': 'vn',
  hanau: 'hg',
  leverkusen: 'dw',
};
