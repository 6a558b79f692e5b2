import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { listCities } from '../services/cities.ts';
import type { ServiceContext } from '../services/context.ts';
import { listSources } from '../services/sources.ts';
import { catalogView } from './catalog-view.ts';

const JSON_MIME = 'application/json';

function json(uri: URL, value: unknown): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: JSON_MIME, text: JSON.stringify(value) }] };
}

/** Whole documents for a client to attach as context; unlike tools they are never paged. */
export function registerResources(server: McpServer, ctx: ServiceContext): void {
  server.registerResource(
    'cities',
    'stadtdaten://cities',
    {
      title: 'City register',
      description: 'All cities of the register with canonical slug, name, AGS, state, coordinates and population.',
      mimeType: JSON_MIME,
    },
    (uri) => json(uri, listCities({ limit: 'all' }, 'mcp')),
  );

  server.registerResource(
    'sources',
    'stadtdaten://sources',
    {
      title: 'Upstream sources',
      description: 'Every upstream source with its enabled state, circuit-breaker state, licence and tier.',
      mimeType: JSON_MIME,
    },
    async (uri) => json(uri, await listSources(ctx, { limit: 'all' }, 'mcp')),
  );

  server.registerResource(
    'catalog',
    'stadtdaten://catalog',
    {
      title: 'Data type catalog',
      description: 'Every data type with German and English label, MCP tool, REST path, coverage and parameters.',
      mimeType: JSON_MIME,
    },
    (uri) => json(uri, catalogView(ctx.rt.catalog)),
  );
}
