import type { SourceDecl } from '../../core/source.ts';

/**
 * München's geoportal WFS (GeoServer workspace mor_wfs of the Mobilitätsreferat), keyless. Layers
 * are asked for by name; without srsName the server answers in its native EPSG:25832.
 */
export const MUENCHEN_GEOPORTAL: SourceDecl = {
  id: 'muenchen-geoportal',
  name: 'Geoportal München (WFS mor_wfs, Mobilitätsreferat)',
  env: 'MUENCHEN_GEOPORTAL',
  baseUrl: 'https://geoportal.muenchen.de/geoserver/mor_wfs/ows',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Landeshauptstadt München, Mobilitätsreferat',
  timeoutMs: 15000,
  // The mobility point layer: about 120 points, under 100 kB.
  maxResponseBytes: 8 * 1024 * 1024,
};
