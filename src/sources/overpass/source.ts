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
  publishedLimit: {
    perHour: Math.floor(10_000 / 24),
    text: 'about 10,000 requests and 1 GB a day per user (guideline of the public instances), 2 concurrent slots per IP',
    ref: 'https://dev.overpass-api.de/overpass-doc/en/preface/commons.html',
  },
  timeoutMs: 200_000,
  // All POIs of a large city's area (precomputed job).
  maxResponseBytes: 96 * 1024 * 1024,
};
