import type { FastifyInstance } from 'fastify';
import { coverage, coverageHtml } from '../services/coverage.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

export function registerCoverage(app: FastifyInstance, ctx: RouteContext) {
  app.get(
    '/api/v1/coverage',
    {
      config: { doc: { summary: 'Which data type is available in which city (generated from the catalog)', tags: ['Cities'] } },
    },
    async (_req, reply) => reply.headers({ 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=300' }).send(JSON.stringify(coverage(ctx))),
  );
  app.get('/coverage', async (_req, reply) =>
    reply.headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300' }).send(coverageHtml(ctx)),
  );
}
