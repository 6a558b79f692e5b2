import type { FastifyInstance } from 'fastify';
import { HTML_TYPE } from '../http/html.ts';
import { cityCoverage, coverage } from '../services/coverage.ts';
import { cityCoverageHtml, coverageHtml } from '../services/coverage-html.ts';
import { CityCoverageAnswer, CoverageAnswer } from '../services/schemas.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

export function registerCoverage(app: FastifyInstance, ctx: RouteContext) {
  app.get(
    '/api/v1/coverage',
    {
      config: {
        doc: {
          operationId: 'coverage',
          summary: 'Which data type is available in which city (from the catalog and the sources now)',
          description:
            'Every per-city data type with its covered cities, its source, per-city source variants and their current state (enabled, disabled, breaker open); meta.cells counts the cities x data types matrix by state. The page /coverage shows the same as a table.',
          tags: ['Cities'],
          answer: { name: 'CoverageAnswer', schema: CoverageAnswer },
        },
      },
    },
    async (_req, reply) => reply.headers({ 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=60' }).send(JSON.stringify(await coverage(ctx))),
  );
  app.get(
    '/api/v1/coverage/:slug',
    {
      config: {
        doc: {
          operationId: 'city_coverage',
          summary: 'One city: every per-city data type with its request path and what it answers with now, from the cache',
          description:
            'Every per-city data type of one city with its request path, matrix cell and what a request meets now, from the cache alone (no upstream call; the overview asks): source_status, cache_status and fetched_at of a cached answer, else not_checked with a note.',
          tags: ['Cities'],
          answer: { name: 'CityCoverageAnswer', schema: CityCoverageAnswer },
          responses: { 200: 'Per data type: path, cell state, source_status', 404: 'Unknown city (did-you-mean hint)' },
        },
      },
    },
    async (req, reply) =>
      reply
        .headers({ 'content-type': JSON_TYPE, 'cache-control': 'no-cache' })
        .send(JSON.stringify(await cityCoverage(ctx, (req.params as { slug: string }).slug))),
  );
  app.get('/coverage', async (req, reply) => {
    const topic = (req.query as { topic?: unknown }).topic;
    const html = await coverageHtml(ctx, typeof topic === 'string' ? topic : undefined);
    return reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'public, max-age=60' }).send(html);
  });
  app.get('/coverage/:slug', async (req, reply) =>
    reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'no-cache' }).send(await cityCoverageHtml(ctx, (req.params as { slug: string }).slug)),
  );
}
