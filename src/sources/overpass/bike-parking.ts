import type { Adapter } from '../../core/data-type.ts';
import type { BikeParkingRecord } from '../../core/records/mobility.ts';
import { storedPoisOrNone } from './stored.ts';

export const BIKE_PARKING_POI_TYPE = 'bicycle_parking';

const yesNo = (v: string | undefined): boolean | null => (v === 'yes' ? true : v === 'no' ? false : null);
const count = (v: string | undefined): number | null => (v !== undefined && /^\d{1,5}$/.test(v.trim()) ? Number(v) : null);

/** The city's bicycle parking as the weekly POI precompute (type bicycle_parking) stored it, with its kept tags. */
export const storedBikeParking: Adapter<BikeParkingRecord> = async ({ city, store }) => {
  const found = await storedPoisOrNone(store, city.slug, BIKE_PARKING_POI_TYPE, 'bicycle parking');
  if ('none' in found) return found.none;
  const { stored, meta } = found;
  const items = stored.items.map((p) => ({
    name: p.name,
    lat: p.lat,
    lon: p.lon,
    capacity: count(p.tags?.capacity),
    covered: yesNo(p.tags?.covered),
    type: p.tags?.bicycle_parking ?? null,
    access: p.tags?.access ?? null,
    fee: yesNo(p.tags?.fee),
    osm_type: p.osm_type,
    osm_id: p.osm_id,
  }));
  const withCovered = items.filter((i) => i.covered !== null);
  return {
    data: {
      total_available: stored.total_available,
      sample_size: items.length,
      sample_capacity: items.reduce((n, i) => n + (i.capacity ?? 0), 0),
      covered_share: withCovered.length ? Math.round((withCovered.filter((i) => i.covered).length / withCovered.length) * 1000) / 1000 : null,
      truncated: stored.total_available > items.length,
      items,
    },
    as_of: stored.osm_base,
    meta,
  };
};
