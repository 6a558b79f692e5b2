import type { City } from '../../cities/register.ts';
import type { OsmTypeFilter, TagCondition } from './tag-filter.ts';

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
 * One query per city for a whole table of types (POI types or place types): the echoed area
 * (an unknown area must fail, not count as zero objects), then the union of every type's
 * filter groups with tags and centres. parse.ts sorts the answer back into types by the same
 * tag filters, so a city costs one request to the public instance instead of one per type.
 * Overpass outputs an object matched by several groups once.
 */
export function cityQuery(city: Pick<City, 'ags' | 'osm_relation'>, types: readonly OsmTypeFilter[]): string {
  const union = types.flatMap((t) => t.groups.map((g) => `nwr${g.map(condition).join('')}(area.city);`)).join('\n');
  return [`[out:json][timeout:${QUERY_TIMEOUT_SECONDS}];`, areaStatement(city), '.city out ids;', `(\n${union}\n);`, 'out tags center;'].join('\n');
}
