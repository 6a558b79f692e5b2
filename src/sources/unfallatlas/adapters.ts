import type { Adapter } from '../../core/data-type.ts';
import type { AccidentsRecord } from '../../core/records/accidents.ts';
import { ACCIDENTS_META_KEY, accidentsKey, type AccidentsMeta } from './stored.ts';

/** Reads what the accidents-ingest job stored; request paths never download. */
export const storedAccidents: Adapter<AccidentsRecord> = async ({ city, store }) => {
  const metaRaw = await store.get(ACCIDENTS_META_KEY);
  if (!metaRaw) return { data: null, status: 'no_data', meta: { reason: 'the Unfallatlas has not been ingested yet' } };
  const meta = JSON.parse(metaRaw) as AccidentsMeta;
  const info = { year: meta.year, source_file: meta.file };
  const raw = await store.get(accidentsKey(city.slug));
  if (raw) return { data: JSON.parse(raw) as AccidentsRecord, meta: info };
  const reason = meta.states.includes(city.ags.slice(0, 2))
    ? `the Unfallatlas ${meta.year} lists no accident in this municipality`
    : `the Unfallatlas ${meta.year} has no data for ${city.state_name}`;
  return { data: null, status: 'no_data', meta: { ...info, reason } };
};
