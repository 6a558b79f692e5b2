import type { City } from '../../cities/register.ts';
import type { JobHost } from '../../core/job.ts';
import { PLACE_TYPES, type PlaceType } from '../../sources/overpass/place-types.ts';
import { cityQuery } from '../../sources/overpass/query.ts';
import { parsePlacesAnswer } from '../../sources/overpass/places-parse.ts';
import { markPlacesFailed, writeStoredPlaces } from '../../sources/overpass/places-stored.ts';
import { refreshCities, type CityRefreshOptions, type CityRefreshSummary } from './city-refresh.ts';

export interface PlacesRefreshOptions extends CityRefreshOptions {
  types?: readonly PlaceType[];
}

/**
 * The place precompute: one Overpass query per city for every place type (city-refresh.ts),
 * each type's full list stored, then the city's run record.
 */
export function refreshPlaces(rt: JobHost, cities: readonly City[], opts: PlacesRefreshOptions = {}): Promise<CityRefreshSummary> {
  const { types = PLACE_TYPES, ...refresh } = opts;
  return refreshCities(
    rt,
    cities,
    {
      query: (city) => cityQuery(city, types),
      parse: (body) => parsePlacesAnswer(body, types),
      async store(city, answer, computed_at) {
        const lists = types.map((t) => ({ type: t.id, items: answer.byType.get(t.id) ?? [], osm_base: answer.osm_base, computed_at }));
        const counts = Object.fromEntries(lists.map((l) => [l.type, l.items.length]));
        await writeStoredPlaces(rt.store, city.slug, lists, { computed_at, osm_base: answer.osm_base, counts });
        return counts;
      },
      markFailed: (city, reason, holdMs) => markPlacesFailed(rt.store, city.slug, reason, holdMs),
    },
    refresh,
  );
}
