import type { Adapter } from '../../core/data-type.ts';
import type { FacilityCountsRecord } from '../../core/records/facilities.ts';
import { POI_TYPE_BY_ID } from './poi-types.ts';
import { readStoredPois } from './stored.ts';

/**
 * Counts of some POI types for one topic, read from what the weekly POI precompute stored (the
 * true totals, not the capped item samples). Never fetched on a request.
 */
export function facilityCounts(types: readonly string[]): Adapter<FacilityCountsRecord> {
  return async ({ city, store }) => {
    const facilities: FacilityCountsRecord['facilities'] = [];
    for (const type of types) {
      const stored = await readStoredPois(store, city.slug, type);
      const count = stored?.total_available ?? null;
      facilities.push({
        type,
        label: POI_TYPE_BY_ID.get(type)?.label ?? null,
        count,
        per_100k_inhabitants: count !== null && city.population ? Math.round((count / city.population) * 1e6) / 10 : null,
        computed_at: stored?.computed_at ?? null,
        osm_base: stored?.osm_base ?? null,
      });
    }
    if (facilities.every((f) => f.count === null)) {
      return { data: null, status: 'no_data', meta: { reason: 'the weekly POI precompute has not counted these facilities in this city yet' } };
    }
    return { data: { facilities, population: city.population, population_date: city.population_date } };
  };
}
