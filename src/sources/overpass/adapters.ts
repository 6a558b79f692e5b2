import type { Adapter } from '../../core/data-type.ts';
import type { PoisRecord } from '../../core/records/places.ts';
import { readStoredPois } from './stored.ts';

/** The city's objects of one type as the weekly precompute (job pois-precompute) stored them. */
export const storedPois: Adapter<PoisRecord> = async ({ city, params, store }) => {
  const type = String(params.type);
  const stored = await readStoredPois(store, city.slug, type);
  if (!stored) {
    return { data: null, status: 'no_data', meta: { reason: `the weekly POI precompute has not run yet for ${type} in this city` } };
  }
  const meta = { computed_at: stored.computed_at, item_cap: stored.item_cap };
  if (stored.total_available === 0) {
    return {
      data: null,
      status: 'no_data',
      as_of: stored.osm_base,
      meta: { ...meta, total_available: 0, reason: `OpenStreetMap has no ${type} mapped within the city boundary` },
    };
  }
  const truncated = stored.total_available > stored.items.length;
  return {
    // Kept tags belong to the types that read them (bike-parking), not to the POI record.
    data: {
      type,
      total_available: stored.total_available,
      sample_size: stored.items.length,
      truncated,
      items: stored.items.map(({ tags: _tags, ...item }) => item),
    },
    as_of: stored.osm_base,
    meta: {
      ...meta,
      note: truncated
        ? `items is a sample of ${stored.items.length} of ${stored.total_available} (capped at ${stored.item_cap}); total_available is the true total`
        : 'items holds every object; total_available is the true total',
    },
  };
};
