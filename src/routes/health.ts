import type { FastifyInstance } from 'fastify';
import { problemBody } from '../core/problem.ts';
import { sendProblem } from '../http/errors.ts';
import { toBerlinIso } from '../core/time.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';
import { VERSION } from '../core/version.ts';

const started = Date.now();

export function registerHealth(app: FastifyInstance, { rt, ready }: RouteContext) {
  app.get(
    '/api/v1/health',
    {
      config: {
        doc: {
          summary: 'App status and cache-store reachability',
          tags: ['Operational'],
          responses: { 200: 'Ready', 503: 'Not ready yet (or shutting down)' },
        },
      },
    },
    async (req, reply) => {
      if (!ready.value) {
        return sendProblem(reply, problemBody('not_ready', 'the service is starting or shutting down', 'Retry in a few seconds.', req.url));
      }
      const reachable = await rt.store.ping();
      const breakers = await Promise.all(rt.config.sourceList.map((s) => rt.breakers.state(s)));
      const data = {
        status: reachable ? 'ok' : 'degraded',
        version: VERSION,
        store: { kind: rt.store.kind, reachable, fallback: reachable ? null : 'in-process cache, direct upstream fetches' },
        uptime_seconds: Math.round((Date.now() - started) / 1000),
        sources: {
          total: rt.config.sourceList.length,
          enabled: rt.config.sourceList.filter((s) => rt.sourceEnabled(s)).length,
          open_breakers: rt.config.sourceList.filter((_, i) => breakers[i] === 'OPEN').map((s) => s.id),
        },
        data_types: rt.catalog.counts,
      };
      return reply
        .headers({ 'content-type': JSON_TYPE, 'cache-control': 'no-store' })
        .send(JSON.stringify({ data, meta: { generated_at: toBerlinIso(new Date()), source_status: 'ok' } }));
    },
  );
}
