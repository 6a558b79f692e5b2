// A JSON import (not a file read relative to this module): bundles such as the GTFS child's carry it inline.
import register from './register.json' with { type: 'json' };

import type { City } from '../core/city.ts';

export type { City };

export const CITIES: readonly City[] = Object.freeze(register as City[]);

export const CITY_BY_SLUG: ReadonlyMap<string, City> = new Map(CITIES.map((c) => [c.slug, c]));

/** Public view of a register entry. */
export function cityEntry(c: City) {
  return {
    slug: c.slug,
    name: c.name,
    ags: c.ags,
    ars: c.ars,
    state: c.state,
    state_name: c.state_name,
    lat: c.lat,
    lon: c.lon,
    population: c.population,
    population_date: c.population_date,
    area_km2: c.area_km2,
    wikidata: c.wikidata,
    osm_relation: c.osm_relation,
    aliases: c.aliases,
    core: c.core,
    state_capital: c.state_capital,
    district_free: c.district_free,
    coverage: c.core ? 'full' : 'auto',
  };
}

/** Great-circle distance in km. */
export function distanceKm(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const r = Math.PI / 180;
  const dLat = (bLat - aLat) * r,
    dLon = (bLon - aLon) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * r) * Math.cos(bLat * r) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}
