import type { FastifyInstance } from 'fastify';
import { isLocal } from '../http/request-guard.ts';
import type { RouteContext } from './context.ts';

/** Prometheus metrics: on the local ingress only, unless METRICS_PUBLIC=true (they describe the deployment). */
export function registerMetrics(app: FastifyInstance, { rt }: RouteContext) {
  app.get('/metrics', async (req, reply) => {
    if (!rt.config.metricsPublic && !isLocal(req)) return reply.callNotFound();
    const body = await rt.metrics.registry.metrics();
    return reply.header('content-type', rt.metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
