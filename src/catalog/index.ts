import type { DataType } from './types.ts';
import { routePath } from './types.ts';
import { WIKIDATA_TYPES } from './wikidata.ts';
import { DWD_TYPES } from './dwd.ts';
import { UBA_TYPES } from './uba.ts';
import { STATISTICS_TYPES } from './statistics.ts';
import { SOCIETY_MISC_TYPES } from './society-misc.ts';
import { CHARGING_TYPES } from './charging.ts';
import { POI_DATA_TYPES } from './pois.ts';
import { STATION_TYPES } from './stations.ts';
import { BOARD_TYPES } from './boards.ts';
import { TRANSIT_TYPES } from './transit.ts';
import { DEPARTURE_TYPES } from './departures.ts';

/**
 * The catalog: every data type, grouped by topic. Routes, OpenAPI, overview, coverage,
 * compare and MCP tools are all generated from this list.
 */
const GROUPS: DataType[][] = [
  WIKIDATA_TYPES,
  DWD_TYPES,
  UBA_TYPES,
  STATISTICS_TYPES,
  SOCIETY_MISC_TYPES,
  CHARGING_TYPES,
  POI_DATA_TYPES,
  STATION_TYPES,
  BOARD_TYPES,
  TRANSIT_TYPES,
  DEPARTURE_TYPES,
];

export interface Catalog {
  all: readonly DataType[];
  byType: ReadonlyMap<string, DataType>;
  byCompareResource: ReadonlyMap<string, DataType>;
}

export function buildCatalog(types: readonly DataType[]): Catalog {
  const byType = new Map<string, DataType>();
  const tools = new Set<string>();
  const paths = new Set<string>();
  const byCompareResource = new Map<string, DataType>();
  for (const dt of types) {
    if (byType.has(dt.type)) throw new Error(`duplicate data type ${dt.type}`);
    if (tools.has(dt.tool)) throw new Error(`duplicate tool ${dt.tool}`);
    const p = routePath(dt);
    if (paths.has(p)) throw new Error(`duplicate path ${p}`);
    byType.set(dt.type, dt);
    tools.add(dt.tool);
    paths.add(p);
    if (dt.compare) byCompareResource.set(dt.compare.resource, dt);
  }
  return { all: types, byType, byCompareResource };
}

export const CATALOG: Catalog = buildCatalog(GROUPS.flat());
