import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServiceContext } from '../services/context.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { envelopeResult, OUTPUT_SCHEMA, problemResult } from './result.ts';
import { toolTable } from './tools.ts';
import { VERSION } from '../core/version.ts';

const INSTRUCTIONS = [
  'Stadtdaten: normalised open data of the largest German cities (weather, air, transport, energy, population, …).',
  'Start with get_city_overview for a city: it lists every data type available there and the tool to call.',
  'City arguments accept any common spelling (München, muenchen, Munich). Every result is the envelope {data, meta, attribution};',
  'meta.source_status tells why data is empty (no_data, disabled, not_covered). Lists are bound to a default page size;',
  'meta.pagination says what was applied and limit "all" returns everything. Errors carry a code and a hint for a corrected call.',
].join(' ');

/**
 * One MCP server over one app's runtime and pipeline; cheap to build (the tool table is built once
 * per catalog), so the HTTP transport makes one per request and stdio one per process.
 */
export function createMcpServer(built: ServiceContext): McpServer {
  const server = new McpServer({ name: 'stadtdaten', title: 'Stadtdaten', version: VERSION }, { instructions: INSTRUCTIONS });
  for (const tool of toolTable(built.rt.catalog)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.shape,
        outputSchema: OUTPUT_SCHEMA,
        annotations: tool.annotations,
      },
      async (args: Record<string, unknown>) => {
        try {
          return envelopeResult(tool.title, await tool.run(built, args));
        } catch (err) {
          return problemResult(err, (e) => built.rt.log.error({ err: e, tool: tool.name }, 'MCP tool failed'));
        }
      },
    );
  }
  registerPrompts(server, built.rt.catalog);
  registerResources(server, built);
  return server;
}
