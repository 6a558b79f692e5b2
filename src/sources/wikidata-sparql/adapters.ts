import type { Adapter } from '../../core/data-type.ts';
import type { HeritageRecord } from '../../core/records/city-base.ts';
import { HERITAGE_LIMIT, heritageQuery, parseHeritage, type SparqlResults } from './heritage.ts';

/** One SPARQL query per city for its listed monuments (by the city's Wikidata item from the register). */
export const heritage: Adapter<HeritageRecord[]> = async ({ city, http }) => {
  const body = await http.json<SparqlResults>('/sparql', {
    query: { format: 'json', query: heritageQuery(city.wikidata) },
    headers: { accept: 'application/sparql-results+json' },
  });
  const items = parseHeritage(body);
  if (items.length === 0) return { data: null, status: 'no_data', meta: { reason: 'Wikidata lists no monument with coordinates in this city' } };
  const rows = body.results?.bindings?.length ?? 0;
  return {
    data: items,
    meta: { total: items.length, ...(rows >= HERITAGE_LIMIT ? { truncated: true, note: `the query stops at ${HERITAGE_LIMIT} rows` } : {}) },
  };
};
