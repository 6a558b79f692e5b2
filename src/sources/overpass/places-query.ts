import type { City } from '../../cities/register.ts';
import type { PlaceType } from './place-types.ts';
import { QUERY_TIMEOUT_SECONDS, areaStatement, condition } from './query.ts';

/**
 * One query per city for every place type: the echoed area (an unknown area must fail, not
 * count as zero places), then the union of all type filters with tags and centres. The answer
 * is sorted into types by the same tag conditions (place-types.ts), so the whole city costs
 * one request to the public instance instead of one per type.
 */
export function placesQuery(city: Pick<City, 'ags' | 'osm_relation'>, types: readonly PlaceType[]): string {
  const union = types.flatMap((t) => t.groups.map((g) => `nwr${g.map(condition).join('')}(area.city);`)).join('\n');
  return [`[out:json][timeout:${QUERY_TIMEOUT_SECONDS}];`, areaStatement(city), '.city out ids;', `(\n${union}\n);`, 'out tags center;'].join('\n');
}
