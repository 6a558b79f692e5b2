import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceContext } from '../services/context.ts';
import { checkArgs } from './args.ts';
import { registerPrompts } from './prompts.ts';
import { registerAppResources } from './app-resources.ts';
import { toolUiMeta } from './apps.ts';
import { registerResources } from './resources.ts';
import { envelopeResult, problemResult } from './result.ts';
import { toolTable, type ToolDef } from './tools.ts';
import { VERSION } from '../core/version.ts';
import { quotedInput } from '../core/problem.ts';

const INSTRUCTIONS = [
  'Stadtdaten: normalised open data of the 84 largest German cities (weather, air, transport, energy, population, economy, places).',
  "Start with city_overview for a city: it lists every data type available there and the tool to call; a topic tool takes data_type and the type's arguments.",
  'City arguments accept any common spelling (München, muenchen, Munich). Every result is the envelope {data, meta, attribution};',
  'meta.source_status tells why data is empty (no_data, disabled, not_covered). Lists are bound to 25 items;',
  'meta.pagination says what was applied and limit "all" returns everything. Errors carry a code and a hint for a corrected call.',
  'Full data schemas: resource stadtdaten://schemas/{data_type}.',
].join(' ');

const listings = new WeakMap<ToolDef[], Map<boolean, Tool[]>>();

/**
 * tools/list as sent: built once per catalog, because its size is part of the contract (<= 40 KB).
 * With MCP Apps a tool that has a view names it in `_meta` (apps.ts); nothing else differs.
 */
export function toolListing(table: ToolDef[], apps = false): Tool[] {
  let byApps = listings.get(table);
  if (!byApps) listings.set(table, (byApps = new Map()));
  const known = byApps.get(apps);
  if (known) return known;
  const list: Tool[] = table.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema as Tool['outputSchema'],
    annotations: t.annotations,
    ...(apps && t.view ? { _meta: toolUiMeta(t.view) } : {}),
  }));
  byApps.set(apps, list);
  return list;
}

/**
 * One MCP server over one app's runtime and pipeline; cheap to build (the tool table is built once
 * per catalog), so the HTTP transport makes one per request and stdio one per process. Tools are
 * served from plain JSON Schemas (the low-level handlers), prompts and resources by McpServer.
 */
export function createMcpServer(built: ServiceContext): McpServer {
  const server = new McpServer({ name: 'stadtdaten', title: 'Stadtdaten', version: VERSION }, { instructions: INSTRUCTIONS });
  const table = toolTable(built.rt.catalog);
  const byName = new Map(table.map((t) => [t.name, t]));
  server.server.registerCapabilities({ tools: { listChanged: false } });
  const apps = built.rt.config.mcpAppsEnabled;
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolListing(table, apps) }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    // An unknown tool is a protocol error (MCP spec); everything about the arguments is a tool error.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool${quotedInput(request.params.name)}; tools/list names ${table.length} tools.`);
    try {
      const args = checkArgs(tool.name, tool.inputSchema, request.params.arguments ?? {});
      return envelopeResult(tool.title, await tool.run(built, args));
    } catch (err) {
      return problemResult(err, (e) => built.rt.log.error({ err: e, tool: tool.name }, 'MCP tool failed'));
    }
  });
  registerPrompts(server, built.rt.catalog);
  registerResources(server, built);
  if (apps) registerAppResources(server, built.rt.catalog);
  return server;
}
