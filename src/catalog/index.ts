import type { DataType } from '../core/data-type.ts';
import { buildCatalog, type Catalog } from './build.ts';
import { WIKIDATA_TYPES } from './wikidata.ts';
import { ENVIRONMENT_TYPES } from './environment.ts';
import { STATISTICS_TYPES } from './statistics.ts';
import { SOCIETY_MISC_TYPES } from './society-misc.ts';
import { CHARGING_TYPES } from './charging.ts';
import { POI_DATA_TYPES } from './pois.ts';
import { STATION_TYPES } from './stations.ts';
import { BOARD_TYPES } from './boards.ts';
import { TRANSIT_TYPES } from './transit.ts';
import { DEPARTURE_TYPES } from './departures.ts';
import { SAFETY_TYPES } from './safety.ts';
import { SOCIETY_EXTRA_TYPES } from './society-extra.ts';
import { ENERGY_TYPES } from './energy.ts';
import { ECONOMY_EXTRA_TYPES } from './economy-extra.ts';

/**
 * The catalog: every data type, grouped by topic. Routes, OpenAPI, overview, coverage,
 * compare and MCP tools are all generated from this list.
 */
const GROUPS: DataType[][] = [
  WIKIDATA_TYPES,
  ENVIRONMENT_TYPES,
  STATISTICS_TYPES,
  SOCIETY_MISC_TYPES,
  CHARGING_TYPES,
  POI_DATA_TYPES,
  STATION_TYPES,
  BOARD_TYPES,
  TRANSIT_TYPES,
  DEPARTURE_TYPES,
  SAFETY_TYPES,
  SOCIETY_EXTRA_TYPES,
  ENERGY_TYPES,
  ECONOMY_EXTRA_TYPES,
];

export { buildCatalog, type Catalog, type CatalogCounts } from './build.ts';

export const CATALOG: Catalog = buildCatalog(GROUPS.flat());
