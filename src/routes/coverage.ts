import type { FastifyInstance } from 'fastify';
import { HTML_TYPE } from '../http/html.ts';
import { cityCoverage, coverage } from '../services/coverage.ts';
import { cityCoverageHtml, coverageHtml } from '../services/coverage-html.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

export function registerCoverage(app: FastifyInstance, ctx: RouteContext) {
  app.get(
    '/api/v1/coverage',
    {
      config: { doc: { summary: 'Which data type is available in which city (from the catalog and the sources now)', tags: ['Cities'] } },
    },
    async (_req, reply) => reply.headers({ 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=60' }).send(JSON.stringify(await coverage(ctx))),
  );
  app.get(
    '/api/v1/coverage/:slug',
    {
      config: {
        doc: {
          summary: 'One city: every per-city data type with its request path and the source_status it answers with now',
          tags: ['Cities'],
          responses: { 200: 'Per data type: path, cell state, source_status', 404: 'Unknown city (did-you-mean hint)' },
        },
      },
    },
    async (req, reply) =>
      reply
        .headers({ 'content-type': JSON_TYPE, 'cache-control': 'no-cache' })
        .send(JSON.stringify(await cityCoverage(ctx, (req.params as { slug: string }).slug))),
  );
  app.get('/coverage', async (_req, reply) =>
    reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'public, max-age=60' }).send(await coverageHtml(ctx)),
  );
  app.get('/coverage/:slug', async (req, reply) =>
    reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'no-cache' }).send(await cityCoverageHtml(ctx, (req.params as { slug: string }).slug)),
  );
}
