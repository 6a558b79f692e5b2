import type { SourceDecl } from '../../core/source.ts';

/** VAG Nürnberg "Puls" real-time departures (keyless open data). */
export const VAG: SourceDecl = {
  id: 'vag',
  name: 'VAG Verkehrs-Aktiengesellschaft Nürnberg (Echtzeitauskunft)',
  env: 'VAG',
  baseUrl: 'https://start.vag.de/dm/api',
  license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
  tier: 'A',
  attribution: 'VAG Verkehrs-Aktiengesellschaft Nürnberg (CC BY 4.0)',
  modified: true,
  timeoutMs: 6000,
  // A departure list for one stop is a few KB.
  maxResponseBytes: 2 * 1024 * 1024,
};
