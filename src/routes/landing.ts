import type { FastifyInstance } from 'fastify';
import { requestOrigin } from '../http/origin.ts';
import { HTML_TYPE } from '../http/html.ts';
import { apiIndex, landingHtml } from '../services/landing.ts';
import { ApiIndexAnswer } from '../services/schemas.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

export function registerLanding(app: FastifyInstance, ctx: RouteContext) {
  app.get('/', async (req, reply) =>
    reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'no-cache' }).send(await landingHtml(ctx, requestOrigin(req).replace(/\/$/, ''))),
  );
  app.get(
    '/api/v1',
    {
      config: {
        doc: {
          operationId: 'api_index',
          summary: 'Index of the API: links to every part, the data types with a working example request each',
          description:
            'Where everything is, for programs: the path of every part of the API, example requests that work on this instance, the compare resources and every data type with its route template, example request and whether a source can answer it here.',
          tags: ['Operational'],
          answer: { name: 'ApiIndexAnswer', schema: ApiIndexAnswer },
        },
      },
    },
    async (_req, reply) => reply.headers({ 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=60' }).send(JSON.stringify(apiIndex(ctx))),
  );
}
