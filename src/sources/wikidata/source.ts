import type { SourceDecl } from '../../core/source.ts';

/** Wikidata entity JSON (Special:EntityData). Wikimedia requires a descriptive User-Agent, which the client sends. */
export const WIKIDATA: SourceDecl = {
  id: 'wikidata',
  name: 'Wikidata',
  env: 'WIKIDATA',
  baseUrl: 'https://www.wikidata.org/wiki',
  license: 'CC0-1.0',
  licenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
  tier: 'A',
  attribution: 'Wikidata',
  // A large city's entity is several megabytes.
  timeoutMs: 15000,
  // A large city's entity JSON is about 2 MB.
  maxResponseBytes: 8 * 1024 * 1024,
};
