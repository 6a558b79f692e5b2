import type { SourceDecl } from '../../core/source.ts';

/**
 * Umweltbundesamt air data API v3. The older www.umweltbundesamt.de/api/air_data/v3 host
 * answers 301 to another host, which the hardened client refuses, so the new host is the default.
 */
export const UBA: SourceDecl = {
  id: 'uba',
  name: 'Umweltbundesamt (Luftdaten)',
  env: 'UBA',
  baseUrl: 'https://luftdaten.umweltbundesamt.de/api/air-data/v3',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Umweltbundesamt',
  timeoutMs: 10000,
  // Station list and a day of measures are about 1 MB.
  maxResponseBytes: 8 * 1024 * 1024,
  // UBA publishes hourly; hammering a failing API for minutes gains nothing.
  breaker: { threshold: 5, cooldownSeconds: 300 },
};
