import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Catalog } from '../catalog/index.ts';
import { CITIES } from '../cities/register.ts';
import { FIXED_TOOLS, toolNamesOf, type DataType } from '../core/data-type.ts';
import { DEFAULT_CHANNEL_LIMIT } from '../http/pagination.ts';
import { getCity, listCities } from '../services/cities.ts';
import { compareCities, compareResources, COMPARE_SORTS } from '../services/compare.ts';
import type { Envelope, ServiceContext } from '../services/context.ts';
import { cityOverview } from '../services/overview.ts';
import { listSources, SOURCE_SORTS } from '../services/sources.ts';
import { cityHistory, EVERY_VALUES, recordableTypes } from '../services/history-answers.ts';
import { viewOfTool, type AppView } from './apps.ts';
import { dataTools } from './data-tools.ts';
import { anyType, CITY_PROP, outputSchema, PAGE_PROPS, sortProps, type JsonSchema, type ObjectSchema } from './schema.ts';

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** The data types the tool reaches (none for the fixed tools). */
  types: readonly DataType[];
  /** The MCP Apps view a supporting host shows beside its result (apps.ts), or null. */
  view: AppView | null;
  /** Runs in-process on the MCP channel; throws ProblemError on bad input. */
  run(ctx: ServiceContext, args: Record<string, unknown>): Promise<Envelope>;
}

/**
 * Every tool only reads. destructiveHint matters only for tools that write, but its default is
 * true, so it is stated for clients that show the default. Tools that reach an upstream are
 * open-world.
 */
const annotations = (title: string, openWorld: boolean): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: openWorld,
});

const ENVELOPE = 'Answer: {data, meta, attribution}.';

type Fixed = Omit<ToolDef, 'annotations' | 'types' | 'view'> & { openWorld: boolean };

function fixedTools(catalog: Catalog): Fixed[] {
  const resources = compareResources(catalog);
  return [
    {
      name: 'find_city',
      title: 'Find a city',
      description: `Resolve a city name in any spelling (Munich, Köln, frankfurt) to its register entry (slug, AGS, state, lat/lon in °, population); an unknown name answers city_not_found with a did-you-mean. Without query: all ${CITIES.length} cities, ${DEFAULT_CHANNEL_LIMIT} per page. ${ENVELOPE}`,
      inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'City name or slug in any spelling.' }, ...PAGE_PROPS } },
      outputSchema: outputSchema(null, { ...anyType(['object', 'array']), description: 'One register entry (query given) or the list of entries.' }),
      openWorld: false,
      run: async (_ctx, { query, ...page }) => (typeof query === 'string' && query.trim() ? getCity(query) : listCities(page, 'mcp')),
    },
    {
      name: 'city_overview',
      title: 'City overview',
      description: `Start here for a city: every data type with its tool and whether the city has it, plus current weather and air highlights. ${ENVELOPE}`,
      inputSchema: { type: 'object', properties: { city: CITY_PROP }, required: ['city'] },
      outputSchema: outputSchema(null, {
        type: 'object',
        description: 'city, data_types [{type, tool, available, note}], highlights {weather, air}, summary.',
      }),
      openWorld: true,
      run: (ctx, args) => cityOverview(ctx, String(args.city)),
    },
    {
      name: 'compare_cities',
      title: 'Compare cities',
      description: `One value across several cities, each with its own source_status (ok, no_data, disabled, error, not_found). ${ENVELOPE}`,
      inputSchema: {
        type: 'object',
        properties: {
          cities: {
            anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }],
            description: 'City names or slugs: an array, or comma-separated.',
          },
          resource: { type: 'string', enum: resources, description: 'What to compare.' },
          at: { type: 'string', description: 'A past moment (ISO, e.g. 2026-11-01T12:00Z): recorded values from history instead of current ones.' },
          ...sortProps(COMPARE_SORTS),
          ...PAGE_PROPS,
        },
        required: ['cities', 'resource'],
      },
      outputSchema: outputSchema(null, { type: 'array', description: 'One item per city: {city, source_status, data}.' }),
      openWorld: true,
      run: (ctx, { cities, ...rest }) => compareCities(ctx, { ...rest, cities: Array.isArray(cities) ? cities.join(',') : cities }, 'mcp'),
    },
    {
      name: 'sources',
      title: 'Upstream sources',
      description: `State of every upstream source: enabled, circuit breaker, licence, tier, last success and failure. ${ENVELOPE}`,
      inputSchema: { type: 'object', properties: { ...sortProps(SOURCE_SORTS), ...PAGE_PROPS } },
      outputSchema: outputSchema(null, { type: 'array', description: 'One item per source.' }),
      openWorld: false,
      run: (ctx, args) => listSources(ctx, args, 'mcp'),
    },
    {
      name: 'history',
      title: 'History',
      description: `How a value changed in a city: recorded points (as_of) or, with every (15m, 1h, 1d), min/mean/max per bucket; backfilled points are flagged. no_data names when recording started. ${ENVELOPE}`,
      inputSchema: {
        type: 'object',
        properties: {
          city: CITY_PROP,
          // Not `data_type`: that names the one topic tool that answers a type's current value.
          type: { type: 'string', enum: recordableTypes(catalog).map((dt) => dt.type), description: 'The recorded data type.' },
          from: { type: 'string', description: 'Start, ISO date or date-time with zone (default: 7 days before to).' },
          to: { type: 'string', description: 'End, exclusive (default: now).' },
          every: { type: 'string', enum: EVERY_VALUES, description: 'Bucket width; needed for spans over 31 days.' },
        },
        required: ['city', 'type'],
      },
      outputSchema: outputSchema(null, { type: 'array', description: 'Flat rows per time and field: {as_of, field, value} or {t, field, min, mean, max, n}.' }),
      // Answers from what this service recorded; no upstream is reached.
      openWorld: false,
      run: (ctx, { city, type, ...range }) => cityHistory(ctx, String(city), String(type), range),
    },
  ];
}

const tables = new WeakMap<Catalog, ToolDef[]>();

/** Every tool of a catalog, built once, in the order toolNamesOf gives (the overview's tool names). */
export function toolTable(catalog: Catalog): ToolDef[] {
  let table = tables.get(catalog);
  if (!table) {
    const fixed = fixedTools(catalog).map(({ openWorld, ...t }): ToolDef => ({
      ...t,
      types: [],
      view: viewOfTool(t.name, []),
      annotations: annotations(t.title, openWorld),
    }));
    const data = dataTools(catalog).map((t): ToolDef => ({ ...t, view: viewOfTool(t.name, t.types), annotations: annotations(t.title, true) }));
    const byName = new Map([...fixed, ...data].map((t) => [t.name, t]));
    if (fixed.some((t) => !(FIXED_TOOLS as readonly string[]).includes(t.name)) || data.some((t) => (FIXED_TOOLS as readonly string[]).includes(t.name))) {
      throw new Error(`MCP tool names clash with the fixed tools ${FIXED_TOOLS.join(', ')}`);
    }
    table = toolNamesOf(catalog.all).map((name) => byName.get(name)!);
    tables.set(catalog, table);
  }
  return table;
}
