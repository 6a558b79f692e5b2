import type { SourceDecl } from '../../core/source.ts';

/** The Wikidata Query Service (SPARQL). Wikimedia asks for a descriptive User-Agent, which the client sends. */
export const WIKIDATA_SPARQL: SourceDecl = {
  id: 'wikidata-sparql',
  name: 'Wikidata Query Service',
  env: 'WIKIDATA_SPARQL',
  baseUrl: 'https://query.wikidata.org',
  license: 'CC0-1.0',
  licenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
  tier: 'A',
  attribution: 'Wikidata (CC0); images: Wikimedia Commons, licence per file',
  publishedLimit: {
    perHour: null,
    text: '60 s of query time per minute per IP and User-Agent (bursts 120 s), 30 errors/min; ignoring 429 gets a 24 h ban',
    ref: 'research/upstreams-env.md (WDQS)',
  },
  // The service stops queries after 60 s; a large city's monuments are a few MB.
  timeoutMs: 65_000,
  maxResponseBytes: 32 * 1024 * 1024,
};
