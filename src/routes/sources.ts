import type { FastifyInstance } from 'fastify';
import { channelOf } from '../http/pagination.ts';
import { listSources, SOURCE_SORTS } from '../services/sources.ts';
import { SourcesAnswer } from '../services/schemas.ts';
import { preparedViews, type RouteContext } from './context.ts';

export function registerSources(app: FastifyInstance, ctx: RouteContext) {
  const views = preparedViews(ctx, '/api/v1/sources', 'public, max-age=15');
  app.get(
    '/api/v1/sources',
    {
      config: {
        doc: {
          operationId: 'list_sources',
          summary: 'State of every upstream source: toggle, circuit breaker, licence, last success and failure',
          description:
            'Every upstream source with its setting and credentials (which variables, which are missing, where to register), the data types it unlocks, answers for some cities or stands in for, its circuit breaker, licence and the time of its last success and failure.',
          tags: ['Operational'],
          answer: { name: 'SourcesAnswer', schema: SourcesAnswer },
          paginated: 'meta',
          conditional: true,
          params: [
            { name: 'sort', type: 'string', enum: SOURCE_SORTS, description: 'Sort field', invalid: 'invalid_request' },
            { name: 'order', type: 'string', enum: ['asc', 'desc'], description: 'Sort order (default asc)', invalid: 'invalid_request' },
          ],
          responses: {
            200: 'Sources',
            304: 'Not modified',
            400: 'invalid_request: unknown sort field or order',
            422: 'invalid_parameter: bad page, limit or offset',
          },
        },
      },
    },
    async (req, reply) =>
      views.send(req, reply, async () => {
        const body = await listSources(ctx, req.query as Record<string, unknown>, channelOf(req.headers));
        return { body: JSON.stringify(body), pagination: body.meta.pagination };
      }),
  );
}
