import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allowedHosts, checkRequest } from './guard.ts';
import { isLocal } from '../http/request-guard.ts';
import { sendProblem } from '../http/errors.ts';
import { problemBody } from '../core/problem.ts';
import { ClientLimiter, type LimitState } from '../http/rate-limit.ts';
import type { ServiceContext } from '../services/context.ts';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/**
 * The MCP SDK and our server on it are loaded at the first /mcp call, not at start: they add
 * memory and start time to every process (bench/README.md, "Figures behind code comments"), and many deployments
 * serve REST only.
 */
let mcpModules: Promise<[typeof import('./mcp-server.ts'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | null = null;
function loadMcp() {
  return (mcpModules ??= Promise.all([import('./mcp-server.ts'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));
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
export function registerMcp(app: FastifyInstance, ctx: ServiceContext & { limiter: ClientLimiter | null }) {
  const { config } = ctx.rt;
  const hosts = allowedHosts(config);

  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    const verdict = checkRequest(config, hosts, req.headers.host, req.headers.origin);
    if (!verdict.ok) return rpcError(reply, 403, -32000, `Forbidden: ${verdict.reason}; see MCP_ALLOWED_HOSTS and MCP_ALLOWED_ORIGINS.`);
  };

  /**
   * A JSON-RPC batch is as many calls as it has members: the request itself was counted once by
   * the request guard, the other members are counted here, and a batch is bounded (MCP_MAX_BATCH).
   */
  const countBatch = (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const members = Array.isArray(req.body) ? req.body.length : 1;
    if (members > config.mcpMaxBatch) {
      void rpcError(reply, 400, -32600, `Invalid Request: a batch may hold at most ${config.mcpMaxBatch} messages (MCP_MAX_BATCH).`);
      return Promise.resolve(false);
    }
    const limiter = ctx.limiter;
    if (members <= 1 || limiter === null || isLocal(req)) return Promise.resolve(true);
    return new Promise((resolve) => {
      limiter.consume(limiter.keyOf(req.ip), members - 1, (s: LimitState) => {
        const headers = { 'ratelimit-policy': limiter.policyHeader, ratelimit: ClientLimiter.header(s) };
        if (!s.exceeded) {
          reply.headers(headers);
          return resolve(true);
        }
        void rpcError(reply, 429, -32000, 'Too many requests: every batch member counts against the per-client rate limit; see Retry-After.', {
          ...headers,
          'retry-after': String(Math.max(1, s.resetS)),
        });
        resolve(false);
      });
    });
  };

  /**
   * Servers between calls. Building one (its prompts, resources and JSON Schema validator) cost
   * more than the call itself; a server closed after its call can connect to the next transport
   * (the SDK's Protocol.connect after close()), and serves one call at a time.
   */
  const idle: McpServer[] = [];
  app.post('/mcp', { onRequest: guard }, async (req, reply) => {
    if (!(await countBatch(req, reply))) return reply;
    const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await loadMcp();
    const server = idle.pop() ?? createMcpServer(ctx);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const started = performance.now();
    reply.hijack();
    // Hijacked replies skip Fastify's header handling and its onResponse hook (request metrics).
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v as string);
    reply.raw.on('finish', () => ctx.rt.metrics.observeRequest('POST', '/mcp', reply.raw.statusCode, (performance.now() - started) / 1000));
    reply.raw.on('close', () => {
      server
        .close()
        .then(() => {
          if (idle.length < config.mcpIdleServers) idle.push(server);
        })
        .catch(() => {});
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

  // Stateless: no server-sent event stream to GET and no session to DELETE (the MCP spec's 405).
  // Only POST speaks JSON-RPC; this refusal is a problem document like every other error, and
  // needs no rebinding guard: it reads and changes nothing.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      handler: async (_req, reply) =>
        sendProblem(
          reply,
          problemBody(
            'method_not_allowed',
            `/mcp takes no ${method}: this MCP server is stateless (Streamable HTTP without sessions or a server-sent event stream)`,
            'Send JSON-RPC messages with POST /mcp (Content-Type: application/json, Accept: application/json, text/event-stream).',
            '/mcp',
          ),
          { allow: 'POST' },
        ),
    });
  }
}
