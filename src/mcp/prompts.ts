import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import type { Catalog } from '../catalog/index.ts';
import { coveredCities, type DataType } from '../core/data-type.ts';
import type { City } from '../cities/register.ts';
import { resolveCity } from '../cities/resolve.ts';
import { ProblemError } from '../core/problem.ts';
import { compareResources } from '../services/compare.ts';

/**
 * Prompts name tools from the catalog, so they only mention what this server can answer and
 * only data types that cover the city.
 */
const WARNINGS = /warning/;
const DEPARTURES = /departures/;
const TRAFFIC = /^(traffic|traffic-flow|traffic-reports|traffic-situation|road-events|roadworks|incidents)$/;

function cityArg(raw: string): City {
  try {
    return resolveCity(raw);
  } catch (err) {
    if (err instanceof ProblemError) throw new McpError(ErrorCode.InvalidParams, `${err.detail} ${err.hint}`);
    throw err;
  }
}

function servesCity(dt: DataType, city: City): boolean {
  const covered = coveredCities(dt);
  return dt.scope !== 'global' && (!covered || covered.includes(city.slug));
}

function calls(types: DataType[], city: City): string[] {
  return types.map((dt) => `- ${dt.tool} with {"city": "${city.slug}"} (${dt.label_en})`);
}

function userText(text: string): GetPromptResult {
  return { messages: [{ role: 'user', content: { type: 'text', text } }] };
}

export function registerPrompts(server: McpServer, catalog: Catalog): void {
  const find = (pred: (dt: DataType) => boolean, city: City) => catalog.all.filter((dt) => pred(dt) && servesCity(dt, city));

  server.registerPrompt(
    'city_briefing',
    {
      title: 'City briefing',
      description: 'A short briefing for one city: current weather, air quality, weather warnings and departures.',
      argsSchema: { city: z.string().describe('City name or slug, e.g. München or koeln') },
    },
    ({ city: raw }) => {
      const city = cityArg(raw);
      const weather = find((dt) => dt.highlight === 'weather', city);
      const air = find((dt) => dt.highlight === 'air' || dt.type === 'air' || dt.type === 'air-uba', city);
      const warnings = find((dt) => WARNINGS.test(dt.type), city);
      const departures = find((dt) => DEPARTURES.test(dt.type), city);
      const missing = [
        ['air quality', air],
        ['weather warnings', warnings],
        ['departures', departures],
      ]
        .filter(([, l]) => (l as DataType[]).length === 0)
        .map(([n]) => n);
      return userText(
        [
          `Give me a short briefing for ${city.name} (slug ${city.slug}, ${city.state_name}). Call these Stadtdaten tools:`,
          ...calls([...weather, ...air, ...warnings, ...departures], city),
          missing.length ? `This server has no ${missing.join(', ')} data for ${city.name}; say so briefly.` : '',
          'Then summarise in a few sentences: temperature and conditions, air quality, active warnings, and the next departures with delays.',
          'Where meta.source_status is not ok, say why (no_data, disabled, not_covered) instead of guessing. Credit each source from its attribution.',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    },
  );

  server.registerPrompt(
    'compare_cities',
    {
      title: 'Compare cities',
      description: `Compare one resource across several cities and rank them (resources: ${compareResources(catalog).join(', ')}).`,
      argsSchema: {
        cities: z.string().describe('Comma-separated city names or slugs, e.g. berlin,hamburg,München'),
        resource: z.string().describe(`One of: ${compareResources(catalog).join(', ')}`),
      },
    },
    ({ cities, resource }) => {
      const resources = compareResources(catalog);
      if (!resources.includes(resource))
        throw new McpError(ErrorCode.InvalidParams, `unknown resource "${resource.slice(0, 40)}"; use one of: ${resources.join(', ')}`);
      const names = cities
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (names.length === 0) throw new McpError(ErrorCode.InvalidParams, 'cities is empty; pass e.g. berlin,hamburg');
      return userText(
        [
          `Compare ${resource} across these cities: ${names.join(', ')}.`,
          `Call the Stadtdaten tool compare with {"cities": ${JSON.stringify(names)}, "resource": "${resource}", "limit": "all"}.`,
          'Rank the cities by the most telling value of the resource and present a compact table.',
          'Cities whose source_status is not ok (no_data, disabled, error, not_found) go below the table with the reason. Credit the sources from each attribution.',
        ].join('\n'),
      );
    },
  );

  server.registerPrompt(
    'commute_check',
    {
      title: 'Commute check',
      description: 'Is the commute in one city disrupted? Departures with delays, traffic and roadworks, weather warnings.',
      argsSchema: { city: z.string().describe('City name or slug') },
    },
    ({ city: raw }) => {
      const city = cityArg(raw);
      const departures = find((dt) => DEPARTURES.test(dt.type), city);
      const traffic = find((dt) => TRAFFIC.test(dt.type), city);
      const warnings = find((dt) => WARNINGS.test(dt.type), city);
      const tools = [...departures, ...traffic, ...warnings];
      return userText(
        [
          `Check the commute in ${city.name} (slug ${city.slug}) right now.`,
          tools.length
            ? 'Call these Stadtdaten tools:'
            : `This server has no departures, traffic or warning data for ${city.name}; call get_city_overview with {"city": "${city.slug}"} and say what is available instead.`,
          ...calls(tools, city),
          'Report delays and cancellations, traffic disruptions and roadworks, and warnings that affect travel, most severe first.',
          'Where meta.source_status is not ok, say why. Credit each source from its attribution.',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    },
  );
}
