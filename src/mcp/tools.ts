import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import type { Catalog } from '../catalog/index.ts';
import { CITIES } from '../cities/register.ts';
import { coveredCities, routePath, type DataType } from '../core/data-type.ts';
import { DEFAULT_CHANNEL_LIMIT } from '../http/pagination.ts';
import { envelopeObject } from '../pipeline/run.ts';
import { getCity, listCities } from '../services/cities.ts';
import { compareCities, compareResources, COMPARE_SORTS } from '../services/compare.ts';
import type { Envelope, ServiceContext } from '../services/context.ts';
import { cityOverview } from '../services/overview.ts';
import { listSources, SOURCE_SORTS } from '../services/sources.ts';
import { citySchema, dataTypeShape, PAGE_SHAPE, SORT_SHAPE, type Shape } from './schema.ts';

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  shape: Shape;
  annotations: ToolAnnotations;
  /** Runs in-process on the MCP channel; throws ProblemError on bad input. */
  run(ctx: ServiceContext, args: Record<string, unknown>): Promise<Envelope>;
  /** The catalog entry behind the tool, for data-type tools. */
  dataType?: DataType;
}

/** The names of the tools that are not catalog data types. */
export const FIXED_TOOLS = ['list_cities', 'get_city', 'get_city_overview', 'compare', 'sources'] as const;

const annotations = (title: string, openWorld: boolean): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: openWorld,
});

const ENVELOPE_NOTE = 'Returns the canonical envelope {data, meta, attribution}; meta.source_status (ok, no_data, disabled, not_covered) explains empty data.';

function dataTypeTool(dt: DataType): ToolDef {
  const covered = coveredCities(dt);
  const lines = [
    `${dt.label_en} (${dt.label}): ${dt.summary}. Source: ${dt.source.name}, licence ${dt.source.license}, Tier ${dt.source.tier}.`,
    dt.description ?? '',
    covered
      ? `Covers ${covered.length === 1 ? covered[0] : `${covered.length} cities: ${[...covered].sort().join(', ')}`}; other cities answer not_covered.`
      : '',
    dt.list
      ? `Lists are bound to ${DEFAULT_CHANNEL_LIMIT} items on this channel; meta.pagination says what was applied; limit "all" or all true returns everything.`
      : '',
    dt.live ? `Live: meta.as_of and refresh_seconds (${dt.live.refreshSeconds}).` : '',
    `REST: GET ${routePath(dt)}. ${ENVELOPE_NOTE}`,
  ];
  return {
    name: dt.type.replace(/-/g, '_'),
    title: dt.label_en,
    description: lines.filter(Boolean).join(' '),
    shape: dataTypeShape(dt),
    annotations: annotations(dt.label_en, true),
    dataType: dt,
    async run({ pipeline }, args) {
      const { city, ...query } = args;
      const target = dt.scope === 'global' ? null : typeof city === 'string' ? city : (dt.fixedCity ?? null);
      return envelopeObject(await pipeline.run(dt, target, query, { channel: 'mcp' }));
    },
  };
}

function fixedTools(catalog: Catalog): ToolDef[] {
  const resources = compareResources(catalog);
  return [
    {
      name: 'list_cities',
      title: 'List cities',
      description: `The city register: canonical slug, name, AGS, state, coordinates, population, core flag of each of the ${CITIES.length} cities. Bound to ${DEFAULT_CHANNEL_LIMIT} per page on this channel; limit "all" returns all. ${ENVELOPE_NOTE}`,
      shape: PAGE_SHAPE,
      annotations: annotations('List cities', false),
      run: async (_ctx, args) => listCities(args, 'mcp'),
    },
    {
      name: 'get_city',
      title: 'City register entry',
      description:
        'One register entry (slug, name, AGS/ARS, state, coordinates, population, Wikidata id, coverage) by tolerant name; an unknown name answers city_not_found with a did-you-mean hint.',
      shape: { city: citySchema },
      annotations: annotations('City register entry', false),
      run: async (_ctx, args) => getCity(String(args.city)),
    },
    {
      name: 'get_city_overview',
      title: 'City overview',
      description: 'Start here: every data type available for one city (with its tool name and coverage), current weather and air highlights, and counts.',
      shape: { city: citySchema },
      annotations: annotations('City overview', true),
      run: (ctx, args) => cityOverview(ctx, String(args.city)),
    },
    {
      name: 'compare',
      title: 'Compare cities',
      description: `Compare one resource across cities (${resources.join(', ')}); each city carries its own source_status (ok, no_data, disabled, error, not_found). Bound to ${DEFAULT_CHANNEL_LIMIT} items on this channel; limit "all" returns every city.`,
      shape: {
        cities: z.union([z.array(z.string()), z.string()]).meta({ description: 'City names or slugs, as an array or comma-separated' }),
        resource: z.string().meta({ enum: resources, description: 'What to compare' }),
        ...SORT_SHAPE(COMPARE_SORTS),
        ...PAGE_SHAPE,
      },
      annotations: annotations('Compare cities', true),
      run: (ctx, { cities, ...rest }) => compareCities(ctx, { ...rest, cities: Array.isArray(cities) ? cities.join(',') : cities }, 'mcp'),
    },
    {
      name: 'sources',
      title: 'Upstream sources',
      description: 'State of every upstream source: enabled (toggle and credentials), circuit-breaker state, licence, tier, last success and failure.',
      shape: { ...SORT_SHAPE(SOURCE_SORTS), ...PAGE_SHAPE },
      annotations: annotations('Upstream sources', false),
      run: (ctx, args) => listSources(ctx, args, 'mcp'),
    },
  ];
}

const tables = new WeakMap<Catalog, ToolDef[]>();

/** Every tool of a catalog, built once: one per data type plus the fixed tools. */
export function toolTable(catalog: Catalog): ToolDef[] {
  let table = tables.get(catalog);
  if (!table) {
    const fixed = fixedTools(catalog);
    for (const dt of catalog.all) {
      if ((FIXED_TOOLS as readonly string[]).includes(dt.type.replace(/-/g, '_'))) {
        throw new Error(`data type ${dt.type}: tool name "${dt.tool}" is reserved for a fixed MCP tool (${FIXED_TOOLS.join(', ')})`);
      }
    }
    table = [...catalog.all.map(dataTypeTool), ...fixed];
    tables.set(catalog, table);
  }
  return table;
}
