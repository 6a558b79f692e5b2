import type { FastifyInstance } from 'fastify';
import { problemBody } from '../core/problem.ts';
import { instanceOf, sendProblem } from '../http/errors.ts';
import { toBerlinIso } from '../core/time.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';
import { healthState } from '../services/health.ts';
import { HealthAnswer } from '../services/schemas.ts';

export function registerHealth(app: FastifyInstance, ctx: RouteContext) {
  const { ready } = ctx;
  app.get(
    '/api/v1/health',
    {
      config: {
        doc: {
          operationId: 'api_health',
          summary: 'App status, cache-store reachability, disabled sources, open breakers and demo mode',
          description:
            'Readiness of this instance: 200 while the app and its cache store work (status degraded when the store is unreachable and answers come from memory), with the sources switched off or lacking credentials, the open circuit breakers and the catalog counts; 503 not_ready while starting or shutting down.',
          tags: ['Operational'],
          answer: { name: 'ApiHealthAnswer', schema: HealthAnswer },
          responses: { 200: 'Ready', 503: 'Not ready yet (or shutting down)' },
        },
      },
    },
    async (req, reply) => {
      if (!ready.value) {
        return sendProblem(reply, problemBody('not_ready', 'the service is starting or shutting down', 'Retry in a few seconds.', instanceOf(req)));
      }
      const data = await healthState(ctx);
      return reply
        .headers({ 'content-type': JSON_TYPE, 'cache-control': 'no-store' })
        .send(JSON.stringify({ data, meta: { generated_at: toBerlinIso(new Date()), source_status: 'ok', ...(data.demo ? { demo: true } : {}) } }));
    },
  );
}
