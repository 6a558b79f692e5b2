import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, problemBody, PROBLEM_CONTENT_TYPE, type ProblemBody } from '../core/problem.ts';
import type { Metrics } from '../metrics.ts';

export function sendProblem(reply: FastifyReply, body: ProblemBody) {
  const headers: Record<string, string> = { 'content-type': PROBLEM_CONTENT_TYPE, 'cache-control': 'no-store' };
  if (body.status === 503) headers['retry-after'] = '30';
  return reply.code(body.status).headers(headers).send(JSON.stringify(body));
}

/**
 * One place turns every failure into a problem document: our own ProblemErrors as they are,
 * Fastify's client errors as invalid_request, anything unexpected as a logged, generic 500
 * without stack or path.
 */
export function registerErrorHandling(app: FastifyInstance, metrics: Metrics) {
  // A callback-style hook: an async one costs a promise per request on the HIT path.

  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    metrics.observeRequest(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.setErrorHandler((err: unknown, req, reply) => {
    const instance = req.url.split('?')[0] ?? req.url;
    if (err instanceof ProblemError) return sendProblem(reply, err.body(instance));
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      const detail = e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'request body too large' : 'the request could not be understood';
      return sendProblem(reply, problemBody('invalid_request', detail, 'Check the path, query and headers against GET /api/v1/openapi.yaml.', instance));
    }
    req.log.error({ err }, 'unhandled error');
    return sendProblem(
      reply,
      problemBody(
        'internal_error',
        'an unexpected error occurred; it has been logged',
        'Retry later; if it persists, report it with the time of the request.',
        instance,
      ),
    );
  });

  app.setNotFoundHandler((req, reply) => {
    const instance = req.url.split('?')[0] ?? req.url;
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
        `no route ${req.method} ${instance.slice(0, 200)}`,
        'GET /api/v1/openapi.yaml lists every route; per-city data lives under /api/v1/cities/{slug}/<type>.',
        instance,
      ),
    );
  });
}
