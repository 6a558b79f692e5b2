import type { City } from '../../cities/register.ts';
import type { Store } from '../../core/store.ts';
import type { PoiType } from '../../sources/overpass/poi-types.ts';
import { poisFailedRecently, readStoredPois } from '../../sources/overpass/stored.ts';
import { placesFailedRecently, readPlacesRun } from '../../sources/overpass/places-stored.ts';
import { dueCities } from './city-refresh.ts';

/** Cities with a POI type never stored or stored longer than `maxAgeMs` ago (one query covers all types). */
export function duePoiCities(store: Store, cities: readonly City[], types: readonly PoiType[], maxAgeMs: number, now = Date.now()): Promise<City[]> {
  const oldest = async (city: City): Promise<number | null> => {
    let min = Infinity;
    for (const t of types) {
      const stored = await readStoredPois(store, city.slug, t.id);
      if (!stored) return null;
      min = Math.min(min, Date.parse(stored.computed_at));
    }
    return min === Infinity ? null : min;
  };
  return dueCities(cities, oldest, (city) => poisFailedRecently(store, city.slug), maxAgeMs, now);
}

/** Cities whose place run record is missing or older than `maxAgeMs`. */
export function duePlaceCities(store: Store, cities: readonly City[], maxAgeMs: number, now = Date.now()): Promise<City[]> {
  const computed = async (city: City) => {
    const run = await readPlacesRun(store, city.slug);
    return run ? Date.parse(run.computed_at) : null;
  };
  return dueCities(cities, computed, (city) => placesFailedRecently(store, city.slug), maxAgeMs, now);
}
