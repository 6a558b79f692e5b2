import type { SourceDecl } from '../../core/source.ts';

/**
 * OpenStreetMap through the public Overpass API. Only the weekly POI precompute calls it, so the
 * per-call timeout is long (the query itself is capped by `[timeout:…]`, see query.ts).
 */
export const OVERPASS: SourceDecl = {
  id: 'osm-overpass',
  name: 'OpenStreetMap (via Overpass API)',
  env: 'OVERPASS',
  baseUrl: 'https://overpass-api.de/api',
  license: 'ODbL-1.0',
  licenseUrl: 'https://opendatacommons.org/licenses/odbl/1-0/',
  tier: 'B',
  attribution: '© OpenStreetMap contributors, ODbL',
  timeoutMs: 200_000,
  // All POIs of a large city's area (precomputed job).
  maxResponseBytes: 96 * 1024 * 1024,
};
