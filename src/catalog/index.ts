import type { DataType } from '../core/data-type.ts';
import { buildCatalog, type Catalog } from './build.ts';
import { CITY_TYPES } from './city.ts';
import { ENVIRONMENT_TYPES } from './environment.ts';
import { SOCIETY_TYPES } from './society.ts';
import { ECONOMY_TYPES } from './economy.ts';
import { ENERGY_TYPES } from './energy.ts';
import { PLACES_TYPES } from './places.ts';
import { TRANSPORT_TYPES } from './transport/index.ts';
import { SAFETY_TYPES } from './safety.ts';

/**
 * The catalog: every data type, one file per topic group (transport, the largest, a folder), the
 * city's base data first, then the topics in the order of GROUP_LABELS. Routes, OpenAPI,
 * overview, coverage, compare and MCP tools are all generated from this list.
 */
const GROUPS: DataType[][] = [CITY_TYPES, ENVIRONMENT_TYPES, TRANSPORT_TYPES, ENERGY_TYPES, SOCIETY_TYPES, ECONOMY_TYPES, SAFETY_TYPES, PLACES_TYPES];

export { buildCatalog, type Catalog, type CatalogCounts } from './build.ts';

export const CATALOG: Catalog = buildCatalog(GROUPS.flat());
