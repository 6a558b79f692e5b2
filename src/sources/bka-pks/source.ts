import type { SourceDecl } from '../../core/source.ts';

/** Polizeiliche Kriminalstatistik of the Bundeskriminalamt: yearly tables, read by a yearly job only. */
export const BKA_PKS: SourceDecl = {
  id: 'bka-pks',
  name: 'Polizeiliche Kriminalstatistik (Bundeskriminalamt)',
  env: 'BKA_PKS',
  baseUrl: 'https://www.bka.de/SharedDocs/Downloads/DE/Publikationen/PolizeilicheKriminalstatistik',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  // The BKA requires this credit; the report year and version are added per answer (meta.credit).
  attribution: 'PKS Bundeskriminalamt',
  modified: true,
  timeoutMs: 60_000,
  maxResponseBytes: 32 * 1024 * 1024,
};
