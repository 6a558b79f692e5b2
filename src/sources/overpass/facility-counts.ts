import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { FacilitiesRecord, FacilityCountsRecord } from '../../core/records/facilities.ts';
import { officialParts, type OfficialTable } from '../genesis/official.ts';
import { POI_TYPE_BY_ID } from './poi-types.ts';
import { readStoredPois } from './stored.ts';

/**
 * Counts of some POI types for one topic, read from what the weekly POI precompute stored (the
 * true totals, not the capped item samples). Never fetched on a request.
 */
async function countsOf(ctx: FetchContext, types: readonly string[]): Promise<FacilityCountsRecord['facilities']> {
  const { city, store } = ctx;
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
  return facilities;
}

const NOT_COUNTED = 'the weekly POI precompute has not counted these facilities in this city yet';

/**
 * OSM facility counts plus the official Regionaldatenbank figures of the same topic as the
 * `official` part. Either part alone makes the answer ok, so the type answers without GENESIS
 * credentials; meta.official_reasons says why an official part is null.
 */
export function facilitiesWithOfficial(types: readonly string[], official: Readonly<Record<string, OfficialTable>>): Adapter<FacilitiesRecord> {
  return async (ctx) => {
    const [facilities, { parts, reasons }] = await Promise.all([countsOf(ctx, types), officialParts(ctx, official)]);
    const counted = facilities.some((f) => f.count !== null);
    const meta: Record<string, unknown> = { official_reasons: reasons };
    if (!counted) meta.facilities_reason = NOT_COUNTED;
    if (!counted && Object.values(parts).every((p) => p === null)) {
      return { data: null, status: 'no_data', meta: { ...meta, reason: `${NOT_COUNTED}, and no official figures: see official_reasons` } };
    }
    return { data: { facilities, population: ctx.city.population, population_date: ctx.city.population_date, official: parts }, meta };
  };
}
