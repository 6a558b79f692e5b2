import { createServer, ServerResponse, type IncomingMessage, type Server } from 'node:http';
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

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** A server that can be shut down gently: see startDraining(). */
export interface HttpServer extends Server {
  /**
   * From now on every response, including those of requests already in flight, says
   * `Connection: close`, so each keep-alive connection ends with its last answer and close()
   * completes as soon as the in-flight requests are answered; connections still open after
   * `graceMs` are cut.
   */
  startDraining(graceMs: number): void;
}

/**
 * A Node HTTP server with explicit timeouts and a connection cap, so slow or idle clients cannot
 * hold sockets for Node's defaults (300 s body, 60 s headers), and with every refusal before
 * routing (no Host, URI too long, unparseable bytes, headers too large, timeouts) answered as a
 * problem document. Host is checked here (Node's own check answers an empty 400).
 */
export function createHttpServer(handler: (req: IncomingMessage, res: ServerResponse) => void, limits: ServerLimits): HttpServer {
  const state = { draining: false };
  // Node decides keep-alive when the head is written; a response class of this server's own
  // checks the flag there, so a request that started before the shutdown still closes its
  // connection (Node's close() alone waits for such a connection's keep-alive timeout).
  class DrainAwareResponse extends ServerResponse {}
  const writeHead = ServerResponse.prototype.writeHead;
  DrainAwareResponse.prototype.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (state.draining) this.shouldKeepAlive = false;
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof writeHead;
  const server = createServer(
    {
      ServerResponse: DrainAwareResponse,
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
  // `Expect: 100-continue`: without a listener Node writes "100 Continue" to the socket the moment it has
  // read the head, even while an earlier pipelined request's answer is still being written, which puts the
  // interim answer between that answer's head and body. A request without a body has nothing to wait
  // for: the expectation is ignored (RFC 9110 10.1.1) and the request answered in turn. Only a request
  // that sends a body (POST /mcp) is told to go on. Node closes the connection after a final answer to
  // an expectation it has not answered with 100, for fear of a body still on its way; a request whose
  // framing says it has none sends nothing more, so its flag is cleared and the connection lives on
  // for the requests pipelined behind it, as without a `checkContinue` listener.
  server.on('checkContinue', (req, res) => {
    if (hasBody(req)) res.writeContinue();
    else (res as ServerResponse & { _expect_continue: boolean })._expect_continue = false;
    server.emit('request', req, res);
  });
  return Object.assign(server, {
    startDraining(graceMs: number) {
      state.draining = true;
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), graceMs).unref();
    },
  });
}
