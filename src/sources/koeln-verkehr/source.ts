import type { SourceDecl } from '../../core/source.ts';

/**
 * Stadt Köln's traffic calendar map service (ArcGIS MapServer, keyless): layer 1 "Strecke" carries
 * the current traffic state of the city's road segments; layers 0 and 2 are the roadworks calendar.
 */
export const KOELN_VERKEHR: SourceDecl = {
  id: 'koeln-verkehr',
  name: 'Stadt Köln, Verkehrskalender (Geoportal, ArcGIS MapServer)',
  env: 'KOELN_VERKEHR',
  baseUrl: 'https://geoportal.stadt-koeln.de/arcgis/rest/services/verkehr/verkehrskalender/MapServer',
  license: 'dl-de/zero-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/zero-2-0',
  tier: 'A',
  attribution: 'Stadt Köln',
  timeoutMs: 10000,
  // One query returns at most the service's record limit (a few thousand segments with their courses).
  maxResponseBytes: 16 * 1024 * 1024,
};
