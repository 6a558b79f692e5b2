import type { Adapter } from '../../core/data-type.ts';
import type { ChargingRecord } from '../../core/records/energy.ts';
import { chargingStoreKey } from './stored.ts';

/** The city's stations as the weekly precompute (job charging-precompute) stored them. */
export const storedChargingStations: Adapter<ChargingRecord> = async ({ city, store }) => {
  const raw = await store.get(chargingStoreKey(city.slug));
  if (!raw) return { data: null, status: 'no_data', meta: { reason: 'the register has not been precomputed yet' } };
  const record = JSON.parse(raw) as ChargingRecord;
  const meta = { edition_date: record.edition_date };
  if (record.points.length === 0) return { data: null, status: 'no_data', meta: { ...meta, reason: 'no registered station matched the city' } };
  return { data: record, meta };
};
