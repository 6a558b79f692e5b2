import { routePath, toolNamesOf, type DataType } from '../core/data-type.ts';
import { CITIES } from '../cities/register.ts';

/** The counts every surface shows (health, coverage, overview, MCP, README): computed here, once. */
export interface CatalogCounts {
  data_types: number;
  /** Answered per city (`/cities/{slug}/...`, `/live/{city}/...`). */
  per_city: number;
  /** Not per city: per station (EVA number) or nationwide. */
  global: number;
  cities: number;
  /** MCP tools reaching them (group and own tools plus the fixed ones); does not grow with the catalog. */
  mcp_tools: number;
  /** One sentence, e.g. "39 data types: 37 per city, 2 per station or nationwide; 14 MCP tools". */
  text: string;
}

export interface Catalog {
  all: readonly DataType[];
  byType: ReadonlyMap<string, DataType>;
  byCompareResource: ReadonlyMap<string, DataType>;
  counts: CatalogCounts;
}

export function buildCatalog(types: readonly DataType[]): Catalog {
  const byType = new Map<string, DataType>();
  const paths = new Set<string>();
  const byCompareResource = new Map<string, DataType>();
  for (const dt of types) {
    if (byType.has(dt.type)) throw new Error(`duplicate data type ${dt.type}`);
    const p = routePath(dt);
    if (paths.has(p)) throw new Error(`duplicate path ${p}`);
    byType.set(dt.type, dt);
    paths.add(p);
    if (dt.compare) byCompareResource.set(dt.compare.resource, dt);
  }
  const global = types.filter((dt) => dt.scope === 'global').length;
  const perCity = types.length - global;
  const tools = toolNamesOf(types).length;
  const counts: CatalogCounts = {
    data_types: types.length,
    per_city: perCity,
    global,
    cities: CITIES.length,
    mcp_tools: tools,
    text: `${types.length} data types: ${perCity} per city, ${global} per station or nationwide; ${tools} MCP tools`,
  };
  return { all: types, byType, byCompareResource, counts };
}
