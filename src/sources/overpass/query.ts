import type { City } from '../../cities/register.ts';
import type { PoiType, TagCondition } from './poi-types.ts';

/** Largest item sample stored per city and type; total_available is always the full count. */
export const ITEM_CAP = 500;
/** Server-side query budget; the public instance rejects long-running queries under load. */
export const QUERY_TIMEOUT_SECONDS = 180;

/** Overpass derives an area from a boundary relation under this fixed id offset. */
const RELATION_AREA_OFFSET = 3_600_000_000;

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export function condition(c: TagCondition): string {
  return `[${quote(c.key)}${c.regex ? '~' : '='}${quote(c.value)}]`;
}

/** The city's administrative area: by OSM relation when the register knows it, else by AGS. */
export function areaStatement(city: Pick<City, 'ags' | 'osm_relation'>): string {
  if (city.osm_relation) return `area(id:${RELATION_AREA_OFFSET + city.osm_relation})->.city;`;
  return `area["de:amtlicher_gemeindeschluessel"=${quote(city.ags)}]["boundary"="administrative"]->.city;`;
}

/**
 * One query per city and type. It echoes the area (an unknown area must fail, not count as
 * zero POIs), then the true total (`out count`) and a capped sample with centres for ways
 * and relations (`out tags center N`).
 */
export function poiQuery(city: Pick<City, 'ags' | 'osm_relation'>, type: PoiType, cap = ITEM_CAP): string {
  const union = type.groups.map((g) => `nwr${g.map(condition).join('')}(area.city);`).join(' ');
  return [`[out:json][timeout:${QUERY_TIMEOUT_SECONDS}];`, areaStatement(city), '.city out ids;', `(${union});`, 'out count;', `out tags center ${cap};`].join(
    '\n',
  );
}
