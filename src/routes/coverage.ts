import type { FastifyInstance } from 'fastify';
import { HTML_TYPE } from '../http/html.ts';
import { cityCoverage, coverage } from '../services/coverage.ts';
import { cityCoverageHtml, coverageHtml } from '../services/coverage-html.ts';
import { CityCoverageAnswer, CoverageAnswer } from '../services/schemas.ts';
import { etagOf } from '../http/conditional.ts';
import { addVary } from '../http/send.ts';
import { cityParam, JSON_TYPE, type RouteContext } from './context.ts';
import { listFormats, requestedFormat, sendListFormat } from './formats.ts';

/** A row of the coverage matrix: one data type; of one city's coverage: one data type in that city. */
const CoverageRow = () => CoverageAnswer().shape.data.element;
const CityCoverageRow = () => CityCoverageAnswer().shape.data.shape.items.element;

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
          formats: () => listFormats(CoverageRow()),
        },
      },
    },
    async (req, reply) => {
      const format = requestedFormat(req, () => listFormats(CoverageRow()));
      const body = await coverage(ctx);
      const text = JSON.stringify(body);
      reply.header('cache-control', 'public, max-age=60');
      addVary(reply, 'Accept');
      if (format !== 'json')
        return sendListFormat(req, reply, {
          item: CoverageRow(),
          rows: body.data as unknown[],
          meta: body.meta,
          format,
          jsonEtag: etagOf(text),
          filename: 'coverage',
        });
      return reply.header('content-type', JSON_TYPE).send(text);
    },
  );
  app.get(
    '/api/v1/coverage/:city',
    {
      config: {
        doc: {
          operationId: 'city_coverage',
          summary: 'One city: every per-city data type with its request path and what it answers with now, from the cache',
          description:
            'Every per-city data type of one city with its request path, matrix cell and what a request meets now, from the cache alone (no upstream call; the overview asks): source_status, cache_status and fetched_at of a cached answer, else not_checked with a note.',
          tags: ['Cities'],
          answer: { name: 'CityCoverageAnswer', schema: CityCoverageAnswer },
          formats: () => listFormats(CityCoverageRow()),
          responses: { 200: 'Per data type: path, cell state, source_status', 404: 'Unknown city (did-you-mean hint)' },
        },
      },
    },
    async (req, reply) => {
      const format = requestedFormat(req, () => listFormats(CityCoverageRow()));
      const body = await cityCoverage(ctx, cityParam(req));
      const text = JSON.stringify(body);
      reply.header('cache-control', 'no-cache');
      addVary(reply, 'Accept');
      if (format !== 'json') {
        const rows = body.data.items;
        return sendListFormat(req, reply, {
          item: CityCoverageRow(),
          rows,
          meta: body.meta,
          format,
          jsonEtag: etagOf(text),
          filename: `coverage-${body.data.city.slug}`,
        });
      }
      return reply.header('content-type', JSON_TYPE).send(text);
    },
  );
  app.get('/coverage', async (req, reply) => {
    const topic = (req.query as { topic?: unknown }).topic;
    const html = await coverageHtml(ctx, typeof topic === 'string' ? topic : undefined);
    return reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'public, max-age=60' }).send(html);
  });
  app.get('/coverage/:city', async (req, reply) =>
    reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'no-cache' }).send(await cityCoverageHtml(ctx, cityParam(req))),
  );
}
