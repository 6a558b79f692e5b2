import type { Adapter } from '../../core/data-type.ts';
import type { BaseRecord } from '../../core/records/city.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { WIKIDATA } from './source.ts';
import { parseCityBase, type EntityDataBody } from './entity.ts';
import { honourRetryAfter } from './retry-after.ts';

/** `Special:EntityData/{qid}.json` of the register's item; a 429's Retry-After is honoured. */
export const cityBase: Adapter<BaseRecord> = async ({ city, http, store }) => {
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
};
