import type { Adapter } from '../../core/data-type.ts';
import type { PlaceRecord } from '../../core/records/places.ts';
import { readStoredPlaces } from './places-stored.ts';

/** Reads one place type of the city as the weekly place precompute stored it; never calls Overpass. */
export function storedPlaces(type: string): Adapter<PlaceRecord[]> {
  return async ({ city, store }) => {
    const stored = await readStoredPlaces(store, city.slug, type);
    if (!stored) return { data: null, status: 'no_data', meta: { reason: `the weekly place precompute has not run yet for this city` } };
    const meta = { computed_at: stored.computed_at, total: stored.items.length };
    if (stored.items.length === 0) {
      return {
        data: null,
        status: 'no_data',
        as_of: stored.osm_base,
        meta: { ...meta, reason: `OpenStreetMap has no ${type} mapped within the city boundary` },
      };
    }
    return { data: stored.items, as_of: stored.osm_base, meta };
  };
}
