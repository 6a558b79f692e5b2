import type { DataType } from '../core/data-type.ts';
import { WIKIDATA } from '../sources/wikidata/source.ts';
import { parseCityBase, type EntityDataBody } from '../sources/wikidata/entity.ts';
import { honourRetryAfter } from '../sources/wikidata/retry-after.ts';
import { UpstreamError } from '../core/upstream-error.ts';

export const base: DataType = {
  type: 'base',
  label: 'Basisdaten',
  label_en: 'Base data',
  group: 'city',
  tool: 'city_base',
  summary: 'Population, area and coordinates of the city from Wikidata',
  description:
    'Read from the Wikidata item of the register (meta.qid). population is the newest P1082 statement by its point in time (P585), ' +
    'deprecated statements excluded, with that date as population_date; area_km2 is P2046 when its unit is km² (hectares and m² are ' +
    'converted, other units dropped); lat/lon are P625. A 429 from Wikidata is honoured: no call is made before its Retry-After has passed, ' +
    'and a cached answer is served meanwhile (meta.retry_after).',
  source: WIKIDATA,
  cache: { freshSeconds: 86400, staleSeconds: 604800 },
  async fetch({ city, http, store }) {
    const res = await honourRetryAfter(store, WIKIDATA.id, () =>
      http.request('/Special:EntityData/{qid}.json', { params: { qid: city.wikidata }, headers: { accept: 'application/json' }, okStatuses: [404] }),
    );
    // 404: no such item (deleted or mistyped in the register); the source works, it has nothing for this QID.
    if (res.status === 404) return { data: null, status: 'no_data', meta: { reason: `Wikidata has no item ${city.wikidata}`, qid: city.wikidata } };
    let body: EntityDataBody;
    try {
      body = JSON.parse(res.body.toString('utf8')) as EntityDataBody;
    } catch {
      throw new UpstreamError('parse', 'unparseable JSON from Wikidata EntityData', res.status);
    }
    const data = parseCityBase(body, city.wikidata);
    return { data, as_of: data.entity_modified_at, meta: { qid: data.qid } };
  },
};

export const WIKIDATA_TYPES: DataType[] = [base];
