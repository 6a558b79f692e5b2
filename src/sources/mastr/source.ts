import type { SourceDecl } from '../../core/source.ts';

/** Marktstammdatenregister (Bundesnetzagentur): the public JSON behind the register's unit search, keyless. */
export const MASTR: SourceDecl = {
  id: 'mastr',
  name: 'Marktstammdatenregister (Bundesnetzagentur)',
  env: 'MASTR',
  baseUrl: 'https://www.marktstammdatenregister.de/MaStR',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Marktstammdatenregister der Bundesnetzagentur',
  modified: true,
  // One page of 5000 units with all public fields is about 12 MB and slow to render upstream.
  timeoutMs: 60000,
  maxResponseBytes: 48 * 1024 * 1024,
};
