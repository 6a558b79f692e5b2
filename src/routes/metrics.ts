import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './context.ts';

export function registerMetrics(app: FastifyInstance, { rt }: RouteContext) {
  app.get('/metrics', async (_req, reply) => {
    const body = await rt.metrics.registry.metrics();
    return reply.header('content-type', rt.metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
