import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { ErrorCode, McpError, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import type { Catalog } from '../catalog/index.ts';
import { coveredCities, toolNamesOf, toolOf, type DataType } from '../core/data-type.ts';
import type { City } from '../cities/register.ts';
import { resolveCity } from '../cities/resolve.ts';
import { ProblemError, quotedInput } from '../core/problem.ts';
import { compareResources } from '../services/compare.ts';
import { completeCity, completeDataType } from './complete.ts';
import { toolHint } from './hints.ts';

/**
 * Prompts name only tools of this server's tool list and only data types that cover the city;
 * every call they ask for is written "`tool` with {arguments}" (the test checks each name).
 */
function cityArg(raw: string): City {
  try {
    return resolveCity(raw);
  } catch (err) {
    if (err instanceof ProblemError) throw new McpError(ErrorCode.InvalidParams, `${err.detail} ${toolHint(err.hint)}`);
    throw err;
  }
}

function servesCity(dt: DataType, city: City): boolean {
  const covered = coveredCities(dt);
  return dt.scope !== 'global' && (!covered || covered.includes(city.slug));
}

function userText(lines: string[]): GetPromptResult {
  return { messages: [{ role: 'user', content: { type: 'text', text: lines.filter(Boolean).join('\n') } }] };
}

/**
 * The prompts' argument schemas, built once per catalog: an MCP server is made per concurrent call
 * (mcp/http-route.ts), and zod schemas with descriptions are too heavy to build per server.
 */
const argsByCatalog = new WeakMap<Catalog, ReturnType<typeof buildPromptArgs>>();

function buildPromptArgs(catalog: Catalog) {
  const cityField = (description: string) => completable(z.string().describe(description), (value) => completeCity(value));
  const resources = compareResources(catalog);
  return {
    resources,
    briefing: { city: cityField('City name or slug, e.g. München, Munich or koeln') },
    compare: {
      cities: z.string().describe('Comma-separated city names or slugs, e.g. berlin,hamburg,München'),
      resource: completable(z.string().describe(`One of: ${resources.join(', ')}`), (value) => resources.filter((r) => r.startsWith(value.toLowerCase()))),
    },
    explain: {
      city: cityField('City name or slug'),
      data_type: completable(z.string().describe('Data type, e.g. weather or population-structure'), (value, context) =>
        completeDataType(catalog, value, context?.arguments?.city),
      ),
    },
    departures: {
      city: cityField('City name or slug'),
      stop: z.string().optional().describe('Optional stop id or name of a live feed (as the departures tool takes it)'),
    },
  };
}

function promptArgs(catalog: Catalog) {
  let a = argsByCatalog.get(catalog);
  if (!a) argsByCatalog.set(catalog, (a = buildPromptArgs(catalog)));
  return a;
}

export function registerPrompts(server: McpServer, catalog: Catalog): void {
  const args = promptArgs(catalog);
  const tools = new Set(toolNamesOf(catalog.all));
  const call = (tool: string, args: Record<string, unknown>, why: string) => {
    if (!tools.has(tool)) throw new Error(`prompt names the unknown tool ${tool}`);
    return `- \`${tool}\` with ${JSON.stringify(args)}: ${why}`;
  };
  const typeCall = (dt: DataType, city: City) => call(toolOf(dt), { city: city.slug, data_type: dt.type }, dt.label_en);
  const find = (pred: (dt: DataType) => boolean, city: City) => catalog.all.filter((dt) => pred(dt) && servesCity(dt, city));
  const departures = catalog.all.filter((dt) => toolOf(dt) === 'departures');
  const warning = (dt: DataType) => dt.group === 'environment' && dt.type.includes('warning');

  server.registerPrompt(
    'city_briefing',
    {
      title: 'City briefing',
      description: 'A short briefing for one city: what data exists there, weather, air quality, warnings and departures.',
      argsSchema: args.briefing,
    },
    ({ city: raw }) => {
      const city = cityArg(raw);
      const highlights = find((dt) => dt.highlight !== undefined || warning(dt), city);
      const hasDepartures = departures.some((dt) => servesCity(dt, city));
      return userText([
        `Give me a short briefing for ${city.name} (slug ${city.slug}, ${city.state_name}). Call these Stadtdaten tools:`,
        call('city_overview', { city: city.slug }, 'what exists for the city'),
        ...highlights.map((dt) => typeCall(dt, city)),
        hasDepartures ? call('departures', { city: city.slug }, 'next departures') : '',
        'Then summarise in a few sentences: temperature and conditions, air quality, active warnings, and the next departures with delays.',
        'Where meta.source_status is not ok, say why (no_data, disabled, not_covered) instead of guessing. Credit each source from its attribution.',
      ]);
    },
  );

  const resources = args.resources;
  server.registerPrompt(
    'compare_cities',
    {
      title: 'Compare cities',
      description: `Compare one value across several cities and rank them (${resources.join(', ')}).`,
      argsSchema: args.compare,
    },
    ({ cities, resource }) => {
      if (!resources.includes(resource))
        throw new McpError(ErrorCode.InvalidParams, `unknown resource${quotedInput(resource)}; use one of: ${resources.join(', ')}`);
      const names = cities
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (names.length === 0) throw new McpError(ErrorCode.InvalidParams, 'cities is empty; pass e.g. berlin,hamburg');
      return userText([
        `Compare ${resource} across these cities: ${names.join(', ')}. Call:`,
        call('compare_cities', { cities: names, resource, limit: 'all' }, 'one row per city'),
        'Rank the cities by the most telling value and present a compact table with units.',
        'Cities whose source_status is not ok go below the table with the reason. Credit the sources from each attribution.',
      ]);
    },
  );

  server.registerPrompt(
    'explain_data',
    {
      title: 'Explain one data type for a city',
      description: 'Fetch one data type for a city and explain its values with their meaning and units.',
      argsSchema: args.explain,
    },
    ({ city: raw, data_type }) => {
      const city = cityArg(raw);
      const dt = catalog.byType.get(data_type);
      if (!dt) throw new McpError(ErrorCode.InvalidParams, `unknown data_type${quotedInput(data_type)}; complete the argument to see the choices`);
      const needs = (dt.params ?? []).filter((p) => p.required).map((p) => p.name);
      return userText([
        `Explain ${dt.label_en} (${dt.type}) for ${city.name} (slug ${city.slug}). Call:`,
        call(toolOf(dt), { ...(dt.scope === 'global' ? {} : { city: city.slug }), data_type: dt.type }, dt.summary),
        needs.length ? `It needs ${needs.join(', ')}: ask me for ${needs.length === 1 ? 'it' : 'them'} first.` : '',
        `The meaning and unit of every field are in the resource stadtdaten://schemas/${dt.type}.`,
        'Explain the most telling values with their units in a few sentences. Where meta.source_status is not ok, say why. Credit the source.',
      ]);
    },
  );

  if (departures.length) {
    server.registerPrompt(
      'departure_check',
      {
        title: 'Departure check',
        description: 'Is public transport in one city running on time? Next departures with delays and weather warnings.',
        argsSchema: args.departures,
      },
      ({ city: raw, stop }) => {
        const city = cityArg(raw);
        const feeds = departures.filter((dt) => servesCity(dt, city));
        const warnings = find(warning, city);
        return userText([
          `Check the departures in ${city.name} (slug ${city.slug}) right now.`,
          feeds.length
            ? call('departures', { city: city.slug, ...(stop ? { stop } : {}) }, 'the live departures (delays in minutes)')
            : `This server has no departure feed for ${city.name}; say so.`,
          ...warnings.map((dt) => typeCall(dt, city)),
          `If the departures answer fits no feed, the error's hint lists the departures data types; ${feeds.map((dt) => dt.type).join(', ') || 'none'} cover ${city.name}.`,
          'Report delays and cancellations, most severe first, and warnings that affect travel. Where meta.source_status is not ok, say why. Credit each source.',
        ]);
      },
    );
  }
}
