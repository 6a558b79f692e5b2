import type { Adapter } from '../../core/data-type.ts';
import type { SustainabilityRecord } from '../../core/records/sustainability.ts';

export const sustainabilityKey = (slug: string) => `sustainability:${slug}`;
export const SUSTAINABILITY_META_KEY = 'sustainability:meta';
/** Kept well beyond the job's interval, so failed runs leave the last edition in place. */
export const SUSTAINABILITY_TTL_MS = 180 * 86_400_000;

/** What the job stores for a city without any value: the edition, for the reason. */
export interface SustainabilityMissing {
  missing: true;
  edition: string;
}

export interface SustainabilityMeta {
  edition: string;
  rows: number;
  matched_rows: number;
  cities: number;
  computed_at: string;
}

/** `sustainability`: what the INKAR precompute stored for the city. */
export const storedSustainability: Adapter<SustainabilityRecord> = async ({ city, store }) => {
  const raw = await store.get(sustainabilityKey(city.slug));
  if (raw === null) return { data: null, status: 'no_data', meta: { reason: 'the INKAR edition has not been precomputed yet' } };
  const record = JSON.parse(raw) as SustainabilityRecord | SustainabilityMissing;
  if ('missing' in record) {
    const why = city.district_free ? '' : ' (a kreisangehörige city: values of its district are not used)';
    return { data: null, status: 'no_data', meta: { reason: `${record.edition} has no value of the declared indicators for AGS ${city.ags}${why}` } };
  }
  const years = record.indicators.map((i) => i.year ?? 0);
  return { data: record, meta: { indicators_with_value: record.indicators.length, newest_year: Math.max(...years) } };
};
