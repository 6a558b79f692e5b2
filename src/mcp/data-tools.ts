import type { Catalog } from '../catalog/index.ts';
import { levenshtein, resolveCity } from '../cities/resolve.ts';
import { coveredCities, GROUP_LABELS, GROUP_TOOLS, toolOf, type DataType, type Group } from '../core/data-type.ts';
import { ProblemError, quotedInput } from '../core/problem.ts';
import { envelopeObject } from '../pipeline/run.ts';
import type { Envelope, ServiceContext } from '../services/context.ts';
import { CITY_PROP, mergeProp, outputSchema, PAGE_PROPS, toolParamProp, type JsonSchema, type ObjectSchema } from './schema.ts';
import { unitsOf } from './units.ts';

/**
 * The data-type tools: one per topic group plus the own tools the catalog names (`dt.tool`, e.g.
 * departures), each taking `data_type` and the union of its types' parameters. The tool list
 * grows by one enum line per data type, never by a tool.
 */
export interface DataTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: JsonSchema;
  types: readonly DataType[];
  run(ctx: ServiceContext, args: Record<string, unknown>): Promise<Envelope>;
}

const PAGE_NAMES = Object.keys(PAGE_PROPS);

/** What an own tool is for, by its name; a new own tool without a line here gets the generic one. */
const OWN_PURPOSE: Record<string, string> = {
  departures:
    "Live departures and arrivals: station boards by EVA number (station argument eva, no city needed), a city's live departure feeds (stop) and GTFS-Realtime departures (stop_id). Without data_type the best feed for the arguments is chosen.",
  trip: 'One public-transport trip with its stops and live delays, by trip_id.',
  route_status: 'Live state of one public-transport route (vehicles, delays), by route_id.',
};

function perCity(dt: DataType): boolean {
  return dt.scope !== 'global';
}

/** The tool list shows summaries up to this length (cut at a word); the catalog resource has them in full. */
const SUMMARY_CHARS = 100;

function brief(summary: string): string {
  if (summary.length <= SUMMARY_CHARS) return summary;
  const cut = summary.slice(0, SUMMARY_CHARS - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[,;:(]+$/, '')}…`;
}

/** One line per data type: what it is, where it exists, the arguments it takes, the units of its answer. */
function typeLine(dt: DataType): string {
  const covered = coveredCities(dt);
  const where = dt.scope === 'global' ? ['no city'] : covered ? [covered.length === 1 ? covered[0]! : `${covered.length} cities`] : [];
  const args = (dt.params ?? []).map((d) => (d.required ? `${d.name}*` : d.name));
  const notes = [...where, ...args];
  const units = unitsOf(dt);
  return `${dt.type}: ${brief(dt.summary)}${notes.length ? ` (${notes.join('; ')})` : ''}${units.length ? ` [${units.join(', ')}]` : ''}`;
}

/**
 * A paging argument of a tool whose types include a list. When one of its types declares a
 * parameter of the same name (parking's `limit`: how many of the nearest lots), both forms are
 * accepted here and each type's own rules decide: `limit: "all"` pages transport's other lists.
 */
function pageProp(name: string, own: JsonSchema | undefined): JsonSchema {
  const paging = PAGE_PROPS[name]!;
  if (!own) return paging;
  const { description: ownSays, ...ownRule } = own;
  const { description: pagingSays, ...pagingRule } = paging;
  return { anyOf: [ownRule, pagingRule], description: [ownSays, pagingSays].filter(Boolean).join(' | ') };
}

function inputOf(types: readonly DataType[], chooses: boolean): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  if (types.some(perCity)) properties.city = CITY_PROP;
  properties.data_type = {
    type: 'string',
    enum: types.map((dt) => dt.type),
    description: `${chooses ? 'Optional: chosen from the arguments when omitted. ' : ''}One of (its arguments, * required):\n${types.map(typeLine).join('\n')}`,
  };
  for (const dt of types) {
    for (const d of dt.params ?? []) {
      properties[d.name] = mergeProp(properties[d.name], toolParamProp(d));
    }
  }
  if (types.some((dt) => dt.list)) for (const n of PAGE_NAMES) properties[n] = pageProp(n, properties[n]);
  const required = [...(types.every((dt) => perCity(dt) && !dt.fixedCity) ? ['city'] : []), ...(chooses ? [] : ['data_type'])];
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** Arguments a data type accepts besides city and data_type. */
function accepted(dt: DataType): string[] {
  return [...(dt.params ?? []).map((d) => d.name), ...(dt.list ? PAGE_NAMES : [])];
}

/** Fixed-city feeds first, then those covering few cities, then nationwide ones: the most specific answer wins. */
function specificity(dt: DataType): number {
  return coveredCities(dt)?.length ?? Number.MAX_SAFE_INTEGER;
}

/**
 * The data type an own tool serves for these arguments when none is named: it must take every
 * argument given, get all it requires, and cover the city (or need none when no city is given).
 */
function inferType(tool: string, types: readonly DataType[], args: Record<string, unknown>, citySlug: string | null): DataType {
  const given = Object.keys(args).filter((k) => k !== 'city' && k !== 'data_type' && args[k] !== undefined);
  const fits = types.filter((dt) => {
    const ok = accepted(dt);
    if (!given.every((k) => ok.includes(k))) return false;
    if ((dt.params ?? []).some((d) => d.required && args[d.name] === undefined)) return false;
    if (citySlug === null) return !perCity(dt);
    const covered = coveredCities(dt);
    return perCity(dt) && (!covered || covered.includes(citySlug));
  });
  const best = fits.sort((a, b) => specificity(a) - specificity(b))[0];
  if (best) return best;
  throw new ProblemError(
    'invalid_request',
    `no data type of ${tool} fits these arguments`,
    `Name data_type, one of: ${types.map((dt) => `${dt.type} (takes ${[perCity(dt) ? 'city' : 'no city', ...accepted(dt)].join(', ')})`).join('; ')}.`,
    { parameter: 'data_type', allowed: types.map((dt) => dt.type) },
  );
}

function unknownType(tool: string, types: readonly DataType[], catalog: Catalog, raw: string): ProblemError {
  const allowed = types.map((dt) => dt.type);
  const elsewhere = catalog.byType.get(raw);
  if (elsewhere) {
    return new ProblemError(
      'invalid_parameter',
      `data_type "${raw}" is served by the tool ${toolOf(elsewhere)}, not ${tool}`,
      `Call ${toolOf(elsewhere)} with data_type "${raw}".`,
      {
        parameter: 'data_type',
        tool: toolOf(elsewhere),
      },
    );
  }
  const near = [...catalog.byType.keys()].map((t) => ({ t, d: levenshtein(raw.toLowerCase(), t) })).sort((a, b) => a.d - b.d)[0];
  const mean = near && near.d <= 3 ? `Did you mean "${near.t}"${allowed.includes(near.t) ? '' : ` (tool ${toolOf(catalog.byType.get(near.t)!)})`}? ` : '';
  return new ProblemError('invalid_parameter', `unknown data_type${quotedInput(raw)}`, `${mean}data_type must be one of: ${allowed.join(', ')}.`, {
    parameter: 'data_type',
    allowed,
  });
}

function buildTool(name: string, types: readonly DataType[], catalog: Catalog, group: Group | null): DataTool {
  const chooses = group === null || types.length === 1;
  const title = group ? GROUP_LABELS[group] : name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
  const purpose = group
    ? `${GROUP_LABELS[group]} of German cities: pick data_type (units in [ ]).`
    : (OWN_PURPOSE[name] ?? `${types.map((dt) => dt.label_en).join(', ')}.`);
  return {
    name,
    title,
    description: `${purpose} meta.source_status explains empty data.`,
    inputSchema: inputOf(types, chooses),
    outputSchema: outputSchema(types),
    types,
    async run({ pipeline }, args) {
      const rawType = args.data_type;
      if (rawType !== undefined && typeof rawType !== 'string') throw unknownType(name, types, catalog, String(rawType));
      const city = typeof args.city === 'string' && args.city.trim() !== '' ? args.city : null;
      let dt: DataType;
      if (rawType !== undefined) {
        const named = types.find((t) => t.type === rawType);
        if (!named) throw unknownType(name, types, catalog, rawType);
        dt = named;
      } else if (chooses) {
        dt = inferType(name, types, args, city === null ? null : resolveCity(city).slug);
      } else {
        throw new ProblemError('invalid_request', 'missing data_type', `data_type must be one of: ${types.map((t) => t.type).join(', ')}.`, {
          parameter: 'data_type',
          allowed: types.map((t) => t.type),
        });
      }
      const { city: _city, data_type: _type, ...query } = args;
      const ok = accepted(dt);
      const extra = Object.keys(query).filter((k) => query[k] !== undefined && !ok.includes(k));
      if (extra.length) {
        throw new ProblemError(
          'invalid_request',
          `${extra.join(', ')} does not apply to data_type ${dt.type}`,
          `${dt.type} takes: ${['city', ...ok].join(', ')}.`,
          {
            parameter: extra[0],
          },
        );
      }
      if (perCity(dt) && city === null && !dt.fixedCity) {
        throw new ProblemError('invalid_request', `data_type ${dt.type} needs a city`, 'Pass city, e.g. "berlin" or "München"; find_city lists them.', {
          parameter: 'city',
        });
      }
      const target = perCity(dt) ? (city ?? dt.fixedCity ?? null) : null;
      return envelopeObject(await pipeline.run(dt, target, query, { channel: 'mcp' }));
    },
  };
}

/** The data-type tools of a catalog, in tools/list order: groups as GROUP_TOOLS orders them, then own tools. */
export function dataTools(catalog: Catalog): DataTool[] {
  const byTool = new Map<string, DataType[]>();
  for (const dt of catalog.all) byTool.set(toolOf(dt), [...(byTool.get(toolOf(dt)) ?? []), dt]);
  const groupOf = new Map(Object.entries(GROUP_TOOLS).map(([g, t]) => [t, g as Group]));
  const tools: DataTool[] = [];
  for (const [g, t] of Object.entries(GROUP_TOOLS)) {
    const types = byTool.get(t);
    if (types) tools.push(buildTool(t, types, catalog, g as Group));
  }
  for (const [t, types] of byTool) if (!groupOf.has(t)) tools.push(buildTool(t, types, catalog, null));
  return tools;
}
