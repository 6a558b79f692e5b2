import type { Adapter, GlobalAdapter } from '../../core/data-type.ts';
import type { TenderRecord } from '../../core/records/tenders.ts';
import { buyerInCity, storedTenders, TENDER_DAYS } from './stored.ts';

const NOT_INGESTED = { data: null, status: 'no_data' as const, meta: { reason: 'the procurement exports have not been ingested yet' } };

/** Tenders whose buyer address lies in the city, newest first (request paths never download). */
export const cityTenders: Adapter<TenderRecord[]> = async ({ city, store }) => {
  const { index, tenders } = await storedTenders(store);
  if (!index) return NOT_INGESTED;
  const mine = tenders.filter((t) => buyerInCity(t, city));
  const meta = { days: index.days, ingested_at: index.computed_at };
  if (mine.length === 0)
    return { data: null, status: 'no_data', meta: { ...meta, reason: `no notice of the last ${TENDER_DAYS} publication days has a buyer in ${city.name}` } };
  return { data: mine, meta };
};

/** All stored tenders, newest first, filtered by free text (`q`) and CPV prefix (`cpv`). */
export const nationalTenders: GlobalAdapter<TenderRecord[]> = async ({ store, params }) => {
  const { index, tenders } = await storedTenders(store);
  if (!index) return NOT_INGESTED;
  const q = typeof params.q === 'string' ? params.q.toLowerCase() : null;
  const cpv = typeof params.cpv === 'string' ? params.cpv : null;
  const hits = tenders.filter(
    (t) => (!cpv || t.cpv.some((c) => c.startsWith(cpv))) && (!q || [t.title, t.description, t.buyer_name, t.place].some((f) => f?.toLowerCase().includes(q))),
  );
  const meta = { days: index.days, ingested_at: index.computed_at };
  if (hits.length === 0) return { data: null, status: 'no_data', meta: { ...meta, reason: 'no stored notice matches the filters' } };
  return { data: hits, meta };
};
