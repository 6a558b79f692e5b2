import type { FastifyInstance } from 'fastify';
import { cityOverview } from '../services/overview.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

/** The city overview: generated from the catalog, with time-capped live highlights. */
export function registerOverview(app: FastifyInstance, ctx: RouteContext) {
  app.get(
    '/api/v1/cities/:slug/overview',
    {
      config: {
        doc: {
          summary: 'Everything available for one city: data types from the catalog, weather and air highlights, counts',
          tags: ['Cities'],
          responses: { 200: 'Overview', 404: 'Unknown city' },
        },
      },
    },
    async (req, reply) => {
      const body = await cityOverview(ctx, (req.params as { slug: string }).slug);
      return reply.headers({ 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=60' }).send(JSON.stringify(body));
    },
  );
}
