import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import { ProblemError } from '../core/problem.ts';
import { ClientLimiter, type LimitState } from './rate-limit.ts';

/** Set on a parsed query in which some parameter came more than once. */
const DUPLICATE = Symbol('duplicate query parameter');
/** Set on requests that arrived on the local ingress (see local-ingress.ts). */
const LOCAL_INGRESS = Symbol('local ingress');

/** Marks a request as arriving on the local ingress: exempt from the rate limit, may read /metrics. */
export function markLocal(req: IncomingMessage) {
  (req as unknown as Record<symbol, boolean>)[LOCAL_INGRESS] = true;
}

export function isLocal(req: FastifyRequest): boolean {
  return (req.raw as unknown as Record<symbol, boolean | undefined>)[LOCAL_INGRESS] === true;
}

/**
 * The query parser: Node's (a prototype-free object), with a repeated parameter (`limit=1&limit=2`)
 * marked, because which of two values counts would be a guess; the guard below refuses it.
 */
export function parseQuery(s: string): Record<string, unknown> {
  const q = parse(s) as Record<string, unknown>;
  for (const k in q) {
    if (Array.isArray(q[k])) {
      Object.defineProperty(q, DUPLICATE, { value: true, enumerable: false });
      break;
    }
  }
  return q;
}

/**
 * One callback-style onRequest hook (no promise, no timer: it runs on every cache HIT): refuses
 * repeated query parameters and counts the client against the per-client limit (countRequest),
 * over the limit 429 with Retry-After. The client is `req.ip`: the TRUST_PROXY rules of
 * http/client-address.ts, which the HIT lane applies too.
 */
export function registerRequestGuard(app: FastifyInstance, limiter: ClientLimiter | null) {
  app.addHook('onRequest', (req, reply, done) => {
    if ((req.query as Record<symbol, unknown>)[DUPLICATE]) {
      done(new ProblemError('invalid_request', 'a query parameter was given more than once', 'Give each parameter once, e.g. limit=10 (not limit=1&limit=2).'));
      return;
    }
    if (limiter === null || isLocal(req) || req.url.startsWith('/api/v1/health')) {
      done();
      return;
    }
    countRequest(limiter, req.ip, (s, headers) => {
      setHeaderList(reply.raw, headers);
      if (s.exceeded) done(rateLimited(s.resetS));
      else done();
    });
  });
}

/**
 * Counts one request of the client at `address`; `cb` gets the state and the IETF `RateLimit` and
 * `RateLimit-Policy` headers as a flat name/value list. Both paths call this: the router's guard
 * writes the list on the raw response, where every answer picks it up (Fastify's, and a stream's
 * head, written past Fastify's reply); the HIT lane adds it to its own header list.
 */
export function countRequest(limiter: ClientLimiter, address: string | undefined, cb: (s: LimitState, headers: readonly string[]) => void) {
  limiter.consume(limiter.keyOf(address), 1, (s) => cb(s, ['ratelimit-policy', limiter.policyHeader, 'ratelimit', ClientLimiter.header(s)]));
}

/** Sets a flat name/value header list on a raw response (Node merges it into the head written later). */
export function setHeaderList(res: ServerResponse, list: readonly string[]) {
  for (let i = 0; i < list.length; i += 2) res.setHeader(list[i] ?? '', list[i + 1] ?? '');
}

export function rateLimited(resetS: number): ProblemError {
  return new ProblemError(
    'rate_limited',
    'this client sent more requests than the per-client limit allows in the current window',
    'Wait for the time in Retry-After; RateLimit and RateLimit-Policy headers show the budget. Cached answers are cheap to re-read with If-None-Match.',
    { retry_after_ms: Math.max(1, resetS) * 1000 },
  );
}
