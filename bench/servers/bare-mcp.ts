/**
 * The reference for the MCP tool call: a bare MCP SDK server on bare Fastify, stateless Streamable
 * HTTP as the SDK documents it (a server and transport per POST, JSON answers), whose one tool
 * returns the very result Stadtdaten gave (argument 1: a file with that result). What it costs is
 * the SDK's and Fastify's own share of a call; what Stadtdaten adds on top is ours.
 */
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { need } from '../need.ts';

const [resultFile, port] = process.argv.slice(2);
const result = JSON.parse(readFileSync(need(resultFile, 'argument 1 (the result file)'), 'utf8')) as CallToolResult;

function server(): McpServer {
  const s = new McpServer({ name: 'bare', version: '1.0.0' });
  s.server.registerCapabilities({ tools: { listChanged: false } });
  s.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'environment', inputSchema: { type: 'object' } }] }));
  s.server.setRequestHandler(CallToolRequestSchema, () => result);
  return s;
}

const app = Fastify({ logger: false });
app.get('/ready', async () => 'ready');
app.post('/mcp', async (req, reply) => {
  const s = server();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void s.close();
  });
  await s.connect(transport);
  await transport.handleRequest(req.raw, reply.raw, req.body);
});
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.send?.('ready');
