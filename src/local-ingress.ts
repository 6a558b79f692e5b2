import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { withCors } from './http/cors.ts';

/**
 * The spec's second ingress ({local_base_url}): another listener handing requests to the same
 * Fastify router, so both addresses share one cache, one set of breakers and one store.
 */
export function listenLocal(route: (req: IncomingMessage, res: ServerResponse) => void, host: string, port: number): Promise<Server> {
  const server = createServer(withCors(route));
  server.keepAliveTimeout = 72_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
