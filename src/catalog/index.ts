import type { DataType } from '../core/data-type.ts';
import { buildCatalog, type Catalog } from './build.ts';
import { CITY_TYPES } from './city.ts';
import { ENVIRONMENT_TYPES } from './environment.ts';
import { SOCIETY_TYPES } from './society-statistics.ts';
import { ECONOMY_TYPES } from './economy-statistics.ts';
import { ENERGY_TYPES } from './energy.ts';
import { PLACES_TYPES } from './places.ts';
import { TRANSPORT_TYPES } from './transport.ts';
import { PLACES_OSM_TYPES } from './places-osm.ts';
import { CITY_BASE_TYPES } from './city-base.ts';
import { PLACES_CITY_PORTAL_TYPES } from './places-city-portals.ts';
import { ROAD_TYPES } from './roads.ts';
import { SAFETY_TYPES } from './safety.ts';
import { SOCIETY_ELECTIONS_HEALTH_TYPES } from './society-elections-health.ts';
import { ENERGY_GRID_TYPES } from './energy-grid.ts';
import { ECONOMY_TENDERS_LAND_TYPES } from './economy-tenders-land.ts';
import { TRANSPORT_MOBILITY_TYPES } from './transport-mobility.ts';

/**
 * The catalog: every data type, grouped by topic. Routes, OpenAPI, overview, coverage,
 * compare and MCP tools are all generated from this list.
 */
const GROUPS: DataType[][] = [
  CITY_TYPES,
  ENVIRONMENT_TYPES,
  SOCIETY_TYPES,
  ECONOMY_TYPES,
  ENERGY_TYPES,
  PLACES_TYPES,
  TRANSPORT_TYPES,
  PLACES_OSM_TYPES,
  CITY_BASE_TYPES,
  PLACES_CITY_PORTAL_TYPES,
  ROAD_TYPES,
  SAFETY_TYPES,
  SOCIETY_ELECTIONS_HEALTH_TYPES,
  ENERGY_GRID_TYPES,
  ECONOMY_TENDERS_LAND_TYPES,
  TRANSPORT_MOBILITY_TYPES,
];

export { buildCatalog, type Catalog, type CatalogCounts } from './build.ts';

export const CATALOG: Catalog = buildCatalog(GROUPS.flat());
