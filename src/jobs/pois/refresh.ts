import type { City } from '../../cities/register.ts';
import type { JobHost } from '../../core/job.ts';
import { POI_TYPES, type PoiType } from '../../sources/overpass/poi-types.ts';
import { cityQuery } from '../../sources/overpass/query.ts';
import { parsePoisAnswer } from '../../sources/overpass/parse.ts';
import { ITEM_CAP, markPoisFailed, writeStoredPois } from '../../sources/overpass/stored.ts';
import { refreshCities, type CityRefreshOptions, type CityRefreshSummary } from './city-refresh.ts';

export interface PoisRefreshOptions extends CityRefreshOptions {
  types?: readonly PoiType[];
}

/**
 * The POI precompute: one Overpass query per city for every POI type (city-refresh.ts), each
 * type stored with its true total and a sample of at most ITEM_CAP items sorted by name.
 */
export function refreshPois(rt: JobHost, cities: readonly City[], opts: PoisRefreshOptions = {}): Promise<CityRefreshSummary> {
  const { types = POI_TYPES, ...refresh } = opts;
  return refreshCities(
    rt,
    cities,
    {
      query: (city) => cityQuery(city, types),
      parse: (body) => parsePoisAnswer(body, types),
      async store(city, answer, computed_at) {
        const values = types.map((t) => {
          const items = answer.byType.get(t.id) ?? [];
          return { type: t.id, total_available: items.length, items: items.slice(0, ITEM_CAP), item_cap: ITEM_CAP, osm_base: answer.osm_base, computed_at };
        });
        await writeStoredPois(rt.store, city.slug, values);
        return Object.fromEntries(values.map((v) => [v.type, v.total_available]));
      },
      markFailed: (city, reason, holdMs) => markPoisFailed(rt.store, city.slug, reason, holdMs),
    },
    refresh,
  );
}
