import { createServer, ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
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
   * completes as soon as the in-flight requests are answered and their bytes written; a
   * connection whose answer had its head out before is ended once that answer has left the
   * process. Connections still open after `graceMs` are cut.
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
  /** Connections that got a request after the drain began: its answer says `Connection: close`, Node ends them. */
  const servedWhileDraining = new WeakSet<Socket>();
  // Node decides keep-alive when the head is written; a response class of this server's own
  // gets a writeHead that clears it once the drain begins, so a request that started before the
  // shutdown still closes its connection (Node's close() alone waits for such a connection's
  // keep-alive timeout). The override is installed when the drain begins, on the class's
  // prototype, so answers already under way get it too and no answer before pays for it.
  class DrainAwareResponse extends ServerResponse {}
  const closingWriteHead = function (this: ServerResponse, ...args: unknown[]) {
    this.shouldKeepAlive = false;
    return (ServerResponse.prototype.writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof ServerResponse.prototype.writeHead;
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
      if (state.draining) servedWhileDraining.add(req.socket);
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
  // Node's closeIdleConnections() (which close() calls too) destroys a connection whose answer is ended
  // in JavaScript but still being written to a slow reader, cutting it short. While draining, each
  // connection is instead ended after the answer it carries has been written.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    if (!state.draining) return closeIdle();
    for (const socket of sockets) endWhenWritten(socket, servedWhileDraining);
  };
  return Object.assign(server, {
    startDraining(graceMs: number) {
      state.draining = true;
      DrainAwareResponse.prototype.writeHead = closingWriteHead;
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), graceMs).unref();
    },
  });
}

/** The answer a connection is writing now (Node's own bookkeeping, which its closeIdleConnections reads too). */
function answerOn(socket: Socket): ServerResponse | null {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}

const watched = new WeakSet<ServerResponse>();

/**
 * How long an idle keep-alive connection may stay open once the drain began: a client that sends
 * its next request right then gets it answered (with `Connection: close`) rather than a closing
 * connection under it, a client that sends nothing is let go.
 */
const IDLE_QUIET_MS = 250;

/**
 * Ends a connection once the bytes of its current answer are written: an idle one after a short
 * quiet period (unless a request came meanwhile); after the answer when its head went out before
 * the drain (with `keep-alive`); an answer whose head is still to come says `Connection: close`, and
 * Node ends the connection after it by itself.
 */
function endWhenWritten(socket: Socket, served: WeakSet<Socket>): void {
  const res = answerOn(socket);
  if (res) {
    if (!res.headersSent || watched.has(res)) return;
    watched.add(res);
    // 'close' follows 'finish', which Node emits once the last byte was handed to the socket.
    res.once('close', () => {
      if (!socket.destroyed) endWhenWritten(socket, served);
    });
    return;
  }
  setTimeout(() => {
    if (!socket.destroyed && !answerOn(socket) && !served.has(socket)) socket.destroySoon();
  }, IDLE_QUIET_MS).unref();
}
