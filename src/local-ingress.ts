import type { IncomingMessage, ServerResponse } from 'node:http';
import { withCors } from './http/cors.ts';
import { createHttpServer, DEFAULT_LIMITS, type HttpServer, type ServerLimits } from './http/node-server.ts';
import { markLocal } from './http/request-guard.ts';

/**
 * The spec's second ingress ({local_base_url}): another listener handing requests to the same
 * Fastify router, so both addresses share one cache, one set of breakers and one store.
 */
export function listenLocal(
  route: (req: IncomingMessage, res: ServerResponse) => void,
  host: string,
  port: number,
  opts: { corsOrigin?: string; limits?: ServerLimits } = {},
): Promise<HttpServer> {
  // Requests here come from inside the deployment: no per-client limit, /metrics readable.
  const marked = (req: IncomingMessage, res: ServerResponse) => {
    markLocal(req);
    route(req, res);
  };
  const server = createHttpServer(withCors(marked, opts.corsOrigin ?? '*'), opts.limits ?? DEFAULT_LIMITS);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
