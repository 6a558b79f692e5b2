import type { SourceDecl } from '../../core/source.ts';

/** DWD observations and warnings through Bright Sky (MIT code; data under DWD's GeoNutzV terms). */
export const BRIGHTSKY: SourceDecl = {
  id: 'dwd-brightsky',
  name: 'Deutscher Wetterdienst (via Bright Sky)',
  env: 'BRIGHTSKY',
  baseUrl: 'https://api.brightsky.dev',
  license: 'GeoNutzV',
  licenseUrl: 'https://www.dwd.de/DE/service/rechtliche_hinweise/rechtliche_hinweise_node.html',
  tier: 'A',
  attribution: 'Datenbasis: Deutscher Wetterdienst, eigene Elemente ergänzt',
  publishedLimit: {
    perHour: 10 * 3600,
    text: 'no published limit (reasonable use); the proxy of the public instance allows 10 requests/s on average, bursts of 50',
    ref: 'research/upstreams-env.md (Bright Sky); research/anchors.md (brightsky-infrastructure ratelimit.yml)',
  },
  modified: true,
  timeoutMs: 8000,
  // Weather and warnings for one place are a few KB.
  maxResponseBytes: 2 * 1024 * 1024,
};

/**
 * DWD warnings through Bright Sky's /alerts. A source of its own because DWD forbids altering
 * warnings: texts are passed on unchanged, so the attribution carries no modification notice.
 */
export const BRIGHTSKY_ALERTS: SourceDecl = {
  ...BRIGHTSKY,
  id: 'dwd-warnings-brightsky',
  name: 'Deutscher Wetterdienst warnings (via Bright Sky)',
  env: 'BRIGHTSKY_ALERTS',
  attribution: 'Quelle: Deutscher Wetterdienst (Warnungen unverändert)',
  modified: false,
};
