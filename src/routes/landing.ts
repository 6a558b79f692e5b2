import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HTML_TYPE } from '../http/html.ts';
import { apiIndex, landingHtml } from '../services/landing.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

/** The origin the request came in on (proxy headers honoured via trustProxy), for copy-paste snippets. */
export function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

export function registerLanding(app: FastifyInstance, ctx: RouteContext) {
  app.get('/', async (req, reply) =>
    reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'no-cache' }).send(await landingHtml(ctx, requestOrigin(req))),
  );
  app.get(
    '/api/v1',
    { config: { doc: { summary: 'Index of the API: links to every part, the data types with a working example request each', tags: ['Operational'] } } },
    async (_req, reply) => reply.headers({ 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=60' }).send(JSON.stringify(apiIndex(ctx))),
  );
}
