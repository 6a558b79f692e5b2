import type { Adapter } from '../../core/data-type.ts';
import type { BikeCountStationRecord } from '../../core/records/mobility.ts';

export const bikeCountsKey = (slug: string) => `bike-counts:${slug}`;
/** Kept well beyond the nightly precompute, so failed runs leave the last values in place. */
export const BIKE_COUNTS_TTL_MS = 30 * 24 * 3600 * 1000;

/** Cities with an open counting-station feed the precompute reads. */
export const BIKE_COUNT_CITIES = ['berlin', 'hamburg', 'leipzig', 'muenchen'] as const;

export interface StoredBikeCounts {
  computed_at: string;
  stations: BikeCountStationRecord[];
  /** Start of the newest hour the feed counts, zoned, where the feed tells it (Berlin's yearly workbook). */
  counted_until?: string | null;
}

/** `bike-counts`: what the nightly precompute stored for the city, stations by name. */
export const storedBikeCounts: Adapter<BikeCountStationRecord[]> = async ({ city, store }) => {
  const raw = await store.get(bikeCountsKey(city.slug));
  if (raw === null) return { data: null, status: 'no_data', meta: { reason: "the city's counting stations have not been precomputed yet" } };
  const stored = JSON.parse(raw) as StoredBikeCounts;
  if (stored.stations.length === 0)
    return { data: null, status: 'no_data', meta: { reason: 'the city feed lists no station with a count', computed_at: stored.computed_at } };
  const latest =
    stored.stations
      .map((s) => s.latest_day ?? '')
      .sort()
      .at(-1) ?? null;
  const stations = [...stored.stations].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '', 'de') || a.id.localeCompare(b.id));
  const until = stored.counted_until ? { counted_until: stored.counted_until } : {};
  return { data: stations, as_of: null, meta: { latest_day: latest, ...until, computed_at: stored.computed_at } };
};
