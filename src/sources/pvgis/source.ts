import type { SourceDecl } from '../../core/source.ts';

/**
 * PVGIS of the EU Joint Research Centre: simulated PV yield from satellite radiation data.
 * The API version is pinned in the base URL: the unversioned /api/ path moves to new versions.
 */
export const PVGIS: SourceDecl = {
  id: 'pvgis',
  name: 'PVGIS (European Commission, Joint Research Centre)',
  env: 'PVGIS',
  baseUrl: 'https://re.jrc.ec.europa.eu/api/v5_3',
  license: 'Commission reuse policy (CC BY 4.0)',
  licenseUrl: 'https://joint-research-centre.ec.europa.eu/photovoltaic-geographical-information-system-pvgis/pvgis-data-download_en',
  tier: 'A',
  attribution: 'PVGIS © European Union, 2001-2026',
  publishedLimit: {
    perHour: 30 * 3600,
    text: 'about 30 calls/s per IP (to be verified)',
    ref: 'research/upstreams-env.md (PVGIS)',
  },
  timeoutMs: 20000,
  maxResponseBytes: 1024 * 1024,
  // About 30 calls per second per IP are allowed; the yield is cached for weeks anyway.
  ratePerMinute: 600,
};

/** The system PVGIS simulates: 1 kWp, 14 % system losses, optimal slope and azimuth. */
export const PV_SYSTEM = { peakpower: 1, loss: 14, optimalangles: 1 } as const;
