import type { IncomingMessage, ServerResponse } from 'node:http';

import { META_HEADERS } from './formats/send.ts';
import { setHeaderList } from './request-guard.ts';

// The X-… meta headers of CSV/GeoJSON answers are readable by browser clients too.
const EXPOSE = ['ETag, Link, Deprecation, Cache-Status, Retry-After, Content-Type, RateLimit, RateLimit-Policy, Content-Disposition', ...META_HEADERS].join(
  ', ',
);

/** The CORS headers of every answer, as name/value pairs in a flat list (the form writeHead takes). */
export const CORS_HEADERS: readonly string[] = ['access-control-allow-origin', '*', 'access-control-expose-headers', EXPOSE];

/**
 * The same headers withCors sets (CORS and nosniff), as a flat name/value list for a raw
 * writeHead: constant for `*`, per request for a list of origins. The HIT lane writes them this
 * way, because setHeader before writeHead takes Node's slower header-merging path.
 */
export function corsHeaderList(origin = '*'): (headers: Record<string, string | string[] | undefined>) => readonly string[] {
  const allowed = allowedOrigins(origin);
  if (allowed === null) {
    const always = [...CORS_HEADERS, 'x-content-type-options', 'nosniff'];
    return () => always;
  }
  const denied = ['vary', 'Origin', 'x-content-type-options', 'nosniff'];
  return (headers) => {
    const o = headers.origin;
    return typeof o === 'string' && allowed.has(o) ? ['access-control-allow-origin', o, 'access-control-expose-headers', EXPOSE, ...denied] : denied;
  };
}

function allowedOrigins(origin: string): Set<string> | null {
  if (origin.trim() === '*') return null;
  return new Set(
    origin
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
  );
}

/**
 * CORS for a public keyless API, without credentials: `*` lets any origin read; a comma list
 * (CORS_ORIGIN) lets only those origins read, echoed one at a time with `Vary: Origin`. Set on the
 * raw response before Fastify runs (Node merges these into the final headers), because a Fastify
 * hook on every request costs a measurable share of a cache HIT. `nosniff` rides along for the
 * same reason: every answer, errors included, carries it. The headers are corsHeaderList's, the
 * list the HIT lane writes: one source for both response paths.
 */
export function withCors(handler: (req: IncomingMessage, res: ServerResponse) => void, origin = '*') {
  const listOf = corsHeaderList(origin);
  return (req: IncomingMessage, res: ServerResponse) => {
    setHeaderList(res, listOf(req.headers));
    handler(req, res);
  };
}
