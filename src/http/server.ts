import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { clientErrorHandler, clientProblem, problemHeaders } from './client-errors.ts';

export interface ServerLimits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

/** The defaults of the SERVER_* settings (config.ts). */
export const DEFAULT_LIMITS: ServerLimits = { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 72_000, maxConnections: 10_000 };

/** Longer URIs are refused with 414 before routing (path segments have their own cap, 200). */
export const MAX_URI_LENGTH = 2048;

function refuse(res: ServerResponse, status: number) {
  const body = JSON.stringify(clientProblem(status));
  res.writeHead(status, { ...problemHeaders(clientProblem(status)), 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

/**
 * A Node HTTP server with explicit timeouts and a connection cap, so slow or idle clients cannot
 * hold sockets for Node's defaults (300 s body, 60 s headers), and with every refusal before
 * routing (no Host, URI too long, unparseable bytes, headers too large, timeouts) answered as a
 * problem document. Host is checked here (Node's own check answers an empty 400).
 */
export function createHttpServer(handler: (req: IncomingMessage, res: ServerResponse) => void, limits: ServerLimits): Server {
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Timeouts are enforced by a periodic sweep; this is its period.
      connectionsCheckingInterval: Math.max(250, Math.min(30_000, Math.floor(limits.headersTimeoutMs / 4))),
      requireHostHeader: false,
    },
    (req, res) => {
      if (req.url !== undefined && req.url.length > MAX_URI_LENGTH) return refuse(res, 414);
      if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return refuse(res, 400);
      handler(req, res);
    },
  );
  server.maxConnections = limits.maxConnections;
  server.on('clientError', clientErrorHandler);
  return server;
}
