import type { FastifyRequest } from 'fastify';

/**
 * The origin a request came in on (scheme from the proxy when trusted), when its Host is a plain
 * host[:port]; anything else gets the relative `/`, which a browser resolves against the page.
 */
export function requestOrigin(req: FastifyRequest): string {
  const host = req.host;
  if (!/^[a-z0-9.-]{1,253}(:\d{1,5})?$/i.test(host) && !/^\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(host)) return '/';
  return `${req.protocol === 'https' ? 'https' : 'http'}://${host}`;
}
