import type { FastifyInstance } from 'fastify';
import { requestOrigin } from '../http/origin.ts';
import { HTML_TYPE } from '../http/html.ts';
import { apiIndex, landingHtml } from '../services/landing.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

export function registerLanding(app: FastifyInstance, ctx: RouteContext) {
  app.get('/', async (req, reply) =>
    reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'no-cache' }).send(await landingHtml(ctx, requestOrigin(req).replace(/\/$/, ''))),
  );
  app.get(
    '/api/v1',
    { config: { doc: { summary: 'Index of the API: links to every part, the data types with a working example request each', tags: ['Operational'] } } },
    async (_req, reply) => reply.headers({ 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=60' }).send(JSON.stringify(apiIndex(ctx))),
  );
}
