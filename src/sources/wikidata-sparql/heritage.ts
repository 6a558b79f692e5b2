import type { HeritageRecord } from '../../core/records/city-base.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

/** SPARQL 1.1 Query Results JSON (https://www.w3.org/TR/sparql11-results-json/). */
export interface SparqlResults {
  head?: { vars?: string[] };
  results?: { bindings?: Record<string, { type?: string; value?: string; datatype?: string; 'xml:lang'?: string } | undefined>[] };
}

/** Most items returned per city (the largest cities have a few thousand listed monuments in Wikidata). */
export const HERITAGE_LIMIT = 10000;

const ENTITY = 'http://www.wikidata.org/entity/';

/**
 * Items with a heritage designation (P1435) located (P131, transitively) in the city's item,
 * with coordinates (P625); image (P18), street address (P6375) and German Wikipedia article
 * where they exist. One row per designation; rows are merged per item by the parser.
 */
export function heritageQuery(cityQid: string): string {
  if (!/^Q\d+$/.test(cityQid)) throw new Error(`not a Wikidata item id: ${cityQid}`);
  return `SELECT ?item ?itemLabel ?designationLabel ?coord ?image ?address ?article WHERE {
  ?item wdt:P1435 ?designation ;
        wdt:P131+ wd:${cityQid} ;
        wdt:P625 ?coord .
  OPTIONAL { ?item wdt:P18 ?image . }
  OPTIONAL { ?item wdt:P6375 ?address . }
  OPTIONAL { ?article schema:about ?item ; schema:isPartOf <https://de.wikipedia.org/> . }
  SERVICE wikibase:label { bd:serviceParam wikibase:language "de,en". }
}
LIMIT ${HERITAGE_LIMIT}`;
}

/** `Point(lon lat)` as Wikidata writes coordinates (WKT order: longitude first). */
export function parseWktPoint(v: string | undefined): { lat: number; lon: number } | null {
  const m = /^\s*(?:<[^>]+>\s*)?Point\(\s*(-?[\d.]+(?:e-?\d+)?)\s+(-?[\d.]+(?:e-?\d+)?)\s*\)\s*$/i.exec(v ?? '');
  if (!m) return null;
  const lon = Number(m[1]);
  const lat = Number(m[2]);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null;
}

export type Monument = HeritageRecord;

/** An RDF term of a results row; a variable bound only in an OPTIONAL clause is absent from rows without it. */
const term = z.looseObject({ type: z.string(), value: z.string() });
const HeritageShape = z.looseObject({
  results: z.looseObject({
    bindings: z.array(
      z.looseObject({
        item: term,
        coord: term,
        itemLabel: term.nullish(),
        designationLabel: term.nullish(),
        image: term.nullish(),
        address: term.nullish(),
        article: term.nullish(),
      }),
    ),
  }),
});

export function parseHeritage(body: SparqlResults): Monument[] {
  const rows = shaped(HeritageShape, body, 'Wikidata SPARQL results').results.bindings;
  const byItem = new Map<string, Monument>();
  for (const row of rows) {
    const uri = row.item.value;
    if (!uri.startsWith(ENTITY)) continue;
    const id = uri.slice(ENTITY.length);
    const point = parseWktPoint(row.coord.value);
    let m = byItem.get(id);
    if (!m) {
      const label = row.itemLabel?.value ?? null;
      m = {
        wikidata_id: id,
        // Without a German or English label the service echoes the id as the label.
        name: label && label !== id ? label : null,
        designations: [],
        lat: point?.lat ?? null,
        lon: point?.lon ?? null,
        street_address: row.address?.value ?? null,
        image_url: row.image?.value?.replace(/^http:/, 'https:') ?? null,
        article_url: row.article?.value ?? null,
        wikidata_url: `https://www.wikidata.org/wiki/${id}`,
      };
      byItem.set(id, m);
    }
    const d = row.designationLabel?.value;
    if (d && !m.designations.includes(d)) m.designations.push(d);
    m.image_url ??= row.image?.value?.replace(/^http:/, 'https:') ?? null;
    m.article_url ??= row.article?.value ?? null;
    m.street_address ??= row.address?.value ?? null;
  }
  return [...byItem.values()].sort((a, b) => {
    if (a.name === b.name) return a.wikidata_id.localeCompare(b.wikidata_id);
    if (a.name === null) return 1;
    if (b.name === null) return -1;
    return a.name.localeCompare(b.name, 'de');
  });
}
