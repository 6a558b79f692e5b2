import type { Adapter } from '../../core/data-type.ts';
import type { CrimeStatsRecord } from '../../core/records/crime.ts';
import { CRIME_META_KEY, creditLine, crimeKey, type CrimeMeta } from './stored.ts';

/** Reads what the crime-stats-ingest job stored; request paths never download. */
export const storedCrimeStats: Adapter<CrimeStatsRecord> = async ({ city, store }) => {
  const metaRaw = await store.get(CRIME_META_KEY);
  if (!metaRaw) return { data: null, status: 'no_data', meta: { reason: 'the PKS city table has not been ingested yet' } };
  const meta = JSON.parse(metaRaw) as CrimeMeta;
  const info = { report_year: meta.report_year, credit: creditLine(meta) };
  const raw = await store.get(crimeKey(city.slug));
  if (!raw) {
    return {
      data: null,
      status: 'no_data',
      meta: {
        ...info,
        reason: `the PKS ${meta.report_year} city table has no row with the municipality key ${city.ags} (it lists cities from 100,000 inhabitants)`,
      },
    };
  }
  return { data: JSON.parse(raw) as CrimeStatsRecord, meta: info };
};
