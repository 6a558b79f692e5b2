import type { Adapter } from '../../core/data-type.ts';
import type { PoisRecord } from '../../core/records/places.ts';
import { storedPoisOrNone } from './stored.ts';

/** The city's objects of one type as the weekly precompute (job pois-precompute) stored them. */
export const storedPois: Adapter<PoisRecord> = async ({ city, params, store }) => {
  const type = String(params.type);
  const found = await storedPoisOrNone(store, city.slug, type, type);
  if ('none' in found) return found.none;
  const { stored, meta } = found;
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
