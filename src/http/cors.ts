import type { IncomingMessage, ServerResponse } from 'node:http';

const EXPOSE = 'ETag, Link, Deprecation, Cache-Status, Retry-After, Content-Type';

/** The CORS headers of every answer, as name/value pairs in a flat list (the form writeHead takes). */
export const CORS_HEADERS: readonly string[] = ['access-control-allow-origin', '*', 'access-control-expose-headers', EXPOSE];

/**
 * CORS for a public keyless API: any origin may read, without credentials. Set on the raw
 * response before Fastify runs (Node merges these into the final headers), because a Fastify
 * hook on every request costs a measurable share of a cache HIT.
 */
export function withCors(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', EXPOSE);
    handler(req, res);
  };
}
