import type { FastifyInstance } from 'fastify';
import { cityOverview } from '../services/overview.ts';
import { OverviewAnswer } from '../services/schemas.ts';
import { cityParam, preparedViews, type RouteContext } from './context.ts';

/** The city overview: generated from the catalog, with time-capped live highlights. */
export function registerOverview(app: FastifyInstance, ctx: RouteContext) {
  const views = preparedViews(ctx, '/api/v1/cities/:city/overview', 'public, max-age=60');
  app.get(
    '/api/v1/cities/:city/overview',
    {
      config: {
        doc: {
          operationId: 'city_overview',
          summary: 'Everything available for one city: data types from the catalog, weather and air highlights, counts',
          description:
            'The city, every per-city data type with its path and whether it is available here (or the cities that have it), the current weather and air as highlights (each capped by OVERVIEW_BUDGET_MS) and a one-line summary.',
          tags: ['Cities'],
          answer: { name: 'OverviewAnswer', schema: OverviewAnswer },
          responses: { 200: 'Overview', 404: 'Unknown city' },
        },
      },
    },
    async (req, reply) =>
      views.send(req, reply, async () => {
        const body = await cityOverview(ctx, cityParam(req));
        // When it was generated is not what it says: a regenerated, unchanged overview keeps its ETag.
        const { generated_at: _at, ...meta } = body.meta;
        return { body: JSON.stringify(body), etagBasis: JSON.stringify({ ...body, meta }) };
      }),
  );
}
