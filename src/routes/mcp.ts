import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allowedHosts, checkRequest } from '../mcp/guard.ts';
import type { RouteContext } from './context.ts';

/**
 * The MCP SDK and our server on it are loaded at the first /mcp call, not at start: they add
 * ~25 MB and ~0.1 s to every process, and many deployments serve REST only.
 */
let mcpModules: Promise<[typeof import('../mcp/server.ts'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | null = null;
function loadMcp() {
  return (mcpModules ??= Promise.all([import('../mcp/server.ts'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));
}

/** JSON-RPC error bodies: MCP clients read these, not problem documents. */
function rpcError(reply: FastifyReply, status: number, code: number, message: string, headers: Record<string, string> = {}) {
  return reply
    .code(status)
    .headers({ 'content-type': 'application/json', 'cache-control': 'no-store', ...headers })
    .send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST gets a fresh server and transport over
 * the shared runtime, so any instance behind a load balancer can answer any call.
 */
export function registerMcp(app: FastifyInstance, ctx: RouteContext) {
  const { config } = ctx.rt;
  const hosts = allowedHosts(config);

  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    const verdict = checkRequest(config, hosts, req.headers.host, req.headers.origin);
    if (!verdict.ok) return rpcError(reply, 403, -32000, `Forbidden: ${verdict.reason}; see MCP_ALLOWED_HOSTS and MCP_ALLOWED_ORIGINS.`);
  };

  app.post('/mcp', { onRequest: guard }, async (req, reply) => {
    const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await loadMcp();
    const server = createMcpServer(ctx);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const started = performance.now();
    reply.hijack();
    // Hijacked replies skip Fastify's header handling and its onResponse hook (request metrics).
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v as string);
    reply.raw.on('finish', () => ctx.rt.metrics.observeRequest('POST', '/mcp', reply.raw.statusCode, (performance.now() - started) / 1000));
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    } catch (err) {
      req.log.error({ err }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }));
      }
    }
  });

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      onRequest: guard,
      handler: async (_req, reply) =>
        rpcError(reply, 405, -32000, 'Method not allowed: this server is stateless; send JSON-RPC messages with POST.', { allow: 'POST' }),
    });
  }
}
