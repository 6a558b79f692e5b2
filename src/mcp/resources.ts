import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { toolOf } from '../core/data-type.ts';
import { ProblemError, quotedInput } from '../core/problem.ts';
import { envelopeObject } from '../pipeline/run.ts';
import { listCities } from '../services/cities.ts';
import type { ServiceContext } from '../services/context.ts';
import { cityOverview } from '../services/overview.ts';
import { listSources } from '../services/sources.ts';
import { catalogView, dataJsonSchema } from './catalog-view.ts';
import { completeCity, completeDataType } from './complete.ts';
import { toolHint } from './hints.ts';

const JSON_MIME = 'application/json';

function json(uri: URL, value: unknown): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: JSON_MIME, text: JSON.stringify(value) }] };
}

function one(v: string | string[] | undefined): string {
  return decodeURIComponent(Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
}

/** Bad input on a resource is a JSON-RPC error (resources have no error results), with the problem's hint. */
async function guarded(read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ProblemError) throw new McpError(ErrorCode.InvalidParams, `${err.code}: ${err.detail} ${toolHint(err.hint)}`);
    throw err;
  }
}

/** Whole documents for a client to attach as context; unlike tools they are never paged. */
export function registerResources(server: McpServer, ctx: ServiceContext): void {
  const { catalog } = ctx.rt;
  server.registerResource(
    'cities',
    'stadtdaten://cities',
    { title: 'City register', description: 'All cities with canonical slug, name, AGS, state, coordinates and population.', mimeType: JSON_MIME },
    (uri) => json(uri, listCities({ limit: 'all' }, 'mcp')),
  );
  server.registerResource(
    'sources',
    'stadtdaten://sources',
    { title: 'Upstream sources', description: 'Every upstream source with its enabled state, circuit-breaker state, licence and tier.', mimeType: JSON_MIME },
    async (uri) => json(uri, await listSources(ctx, { limit: 'all' }, 'mcp')),
  );
  server.registerResource(
    'catalog',
    'stadtdaten://catalog',
    {
      title: 'Data type catalog',
      description: 'Every data type with labels, MCP tool, REST path, coverage, arguments, units and the full JSON Schema of its data.',
      mimeType: JSON_MIME,
    },
    (uri) => json(uri, catalogView(catalog)),
  );

  // `{city}`, as in every REST path and the tools' `city` argument: one name for the city everywhere.
  const cityComplete = { city: (value: string) => completeCity(value) };
  server.registerResource(
    'city',
    new ResourceTemplate('stadtdaten://cities/{city}', { list: undefined, complete: cityComplete }),
    {
      title: 'City overview',
      description: 'Every data type of one city with its tool and availability, plus weather and air highlights.',
      mimeType: JSON_MIME,
    },
    (uri, { city }) => guarded(async () => json(uri, await cityOverview(ctx, one(city)))),
  );
  server.registerResource(
    'city-data',
    new ResourceTemplate('stadtdaten://cities/{city}/{data_type}', {
      list: undefined,
      complete: { ...cityComplete, data_type: (value, context) => completeDataType(catalog, value, context?.arguments?.city) },
    }),
    {
      title: 'One data type of one city',
      description: 'The full answer (every list item) of a per-city data type that needs no further arguments.',
      mimeType: JSON_MIME,
    },
    (uri, { city, data_type }) =>
      guarded(async () => {
        const type = one(data_type);
        const dt = catalog.byType.get(type);
        if (!dt || dt.scope === 'global') {
          throw new ProblemError(
            'invalid_parameter',
            `unknown per-city data_type${quotedInput(type)}`,
            `data_type must be one of: ${completeDataType(catalog, '', one(city)).join(', ')}.`,
          );
        }
        const needs = (dt.params ?? []).filter((p) => p.required).map((p) => p.name);
        if (needs.length) {
          throw new ProblemError(
            'invalid_request',
            `${dt.type} needs ${needs.join(', ')}`,
            `Call the tool ${toolOf(dt)} with data_type "${dt.type}" and ${needs.join(', ')}.`,
          );
        }
        // The whole list; a type whose own parameter is called limit keeps its default instead.
        const query = dt.list && !dt.params?.some((p) => p.name === 'limit') ? { limit: 'all' } : {};
        return json(uri, envelopeObject(await ctx.pipeline.run(dt, one(city), query, { channel: 'mcp' })));
      }),
  );
  server.registerResource(
    'schema',
    new ResourceTemplate('stadtdaten://schemas/{data_type}', {
      list: () => ({
        resources: catalog.all.map((dt) => ({
          uri: `stadtdaten://schemas/${dt.type}`,
          name: `schema-${dt.type}`,
          title: `${dt.label_en}: data schema`,
          mimeType: JSON_MIME,
        })),
      }),
      complete: { data_type: (value) => completeDataType(catalog, value) },
    }),
    {
      title: 'Data schema of a data type',
      description: 'JSON Schema (2020-12) of the data member of one data type, with descriptions and units.',
      mimeType: JSON_MIME,
    },
    (uri, { data_type }) =>
      guarded(async () => {
        const dt = catalog.byType.get(one(data_type));
        if (!dt)
          throw new ProblemError(
            'invalid_parameter',
            `unknown data_type${quotedInput(one(data_type))}`,
            `data_type must be one of: ${catalog.all.map((d) => d.type).join(', ')}.`,
          );
        return json(uri, dataJsonSchema(dt));
      }),
  );
}
