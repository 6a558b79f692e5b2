import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, problemBody, type ProblemBody } from '../core/problem.ts';
import { clientProblem, problemHeaders } from './client-errors.ts';
import type { Metrics } from '../metrics.ts';

export function sendProblem(reply: FastifyReply, body: ProblemBody, extraHeaders: Record<string, string> = {}) {
  return reply
    .code(body.status)
    .headers({ ...problemHeaders(body), ...extraHeaders })
    .send(JSON.stringify(body));
}

/** The path as `instance` only when it is plainly a path: anything else a client sent is not echoed. */
const SAFE_PATH = /^\/[A-Za-z0-9\-._~/]{0,200}$/;
export function instanceOf(req: FastifyRequest): string | undefined {
  return instanceOfUrl(req.url);
}

function instanceOfUrl(url: string): string | undefined {
  const path = url.split('?')[0] ?? '';
  return SAFE_PATH.test(path) ? path : undefined;
}

/** A Retry-After the error asks for (own rate-limit queue full, request budget spent), in whole seconds. */
function retryAfterOf(err: ProblemError): Record<string, string> {
  const ms = err.extra.retry_after_ms;
  if (typeof ms !== 'number') return {};
  return { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) };
}

/** The body and headers of a ProblemError's answer to a request for `url`: the router's error handler and the HIT lane both send this. */
export function problemAnswer(err: ProblemError, url: string): { body: ProblemBody; headers: Record<string, string> } {
  const body = err.body(instanceOfUrl(url));
  delete body.retry_after_ms;
  return { body, headers: { ...problemHeaders(body), ...retryAfterOf(err) } };
}

/**
 * Fastify's own refusals before routing (bad percent-encoding, a path parameter over
 * maxParamLength): the same problem writer, nothing echoed.
 */
export function frameworkErrorHandler(err: { code?: string }, _req: FastifyRequest, reply: FastifyReply): void {
  void sendProblem(reply, clientProblem(err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400));
}

/**
 * One place turns every failure into a problem document: our own ProblemErrors as they are,
 * Fastify's client errors by their status, anything unexpected as a logged, generic 500
 * without stack or path.
 */
export function registerErrorHandling(app: FastifyInstance, metrics: Metrics) {
  // A callback-style hook: an async one costs a promise per request on the HIT path.

  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    metrics.observeRequest(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.setErrorHandler((err: unknown, req, reply) => {
    if (err instanceof ProblemError) {
      const a = problemAnswer(err, req.url);
      return sendProblem(reply, a.body, a.headers);
    }
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      return sendProblem(reply, clientProblem(e.statusCode));
    }
    req.log.error({ err }, 'unhandled error');
    return sendProblem(
      reply,
      problemBody(
        'internal_error',
        'an unexpected error occurred; it has been logged',
        'Retry later; if it persists, report it with the time of the request.',
        instanceOf(req),
      ),
    );
  });

  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'OPTIONS') {
      return reply
        .code(204)
        .headers({
          'access-control-allow-methods': 'GET, HEAD, OPTIONS, POST',
          'access-control-allow-headers': 'If-None-Match, Accept, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, X-Stadtdaten-Channel',
          'access-control-max-age': '86400',
        })
        .send();
    }
    return sendProblem(
      reply,
      problemBody(
        'route_not_found',
        `no route for ${req.method} on this path`,
        'GET /api/v1/openapi.yaml lists every route; per-city data lives under /api/v1/cities/{city}/<type>.',
        instanceOf(req),
      ),
    );
  });
}
