import type { FastifyInstance } from 'fastify';
import { channelOf, setPageLinks } from '../http/pagination.ts';
import { listSources, SOURCE_SORTS } from '../services/sources.ts';
import { SourcesAnswer } from '../services/schemas.ts';
import { etagOf } from '../http/conditional.ts';
import { addVary } from '../http/send.ts';
import { preparedViews, type RouteContext } from './context.ts';
import { listFormats, requestedFormat, sendListFormat } from './formats.ts';

/** One row of the sources list (CSV: nested members flattened, lists as JSON cells). */
const SourceRow = () => SourcesAnswer().shape.data.element;

export function registerSources(app: FastifyInstance, ctx: RouteContext) {
  const views = preparedViews(ctx, '/api/v1/sources', 'public, max-age=15', 'Accept');
  const formats = () => listFormats(SourceRow());
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
          formats,
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
    async (req, reply) => {
      const format = requestedFormat(req, formats);
      // Before the view's own Vary, as the lane's prepared headers have it (http/prepared-views.ts).
      addVary(reply, 'Accept');
      const compute = () => listSources(ctx, req.query as Record<string, unknown>, channelOf(req.headers));
      if (format !== 'json') {
        const body = await compute();
        reply.header('cache-control', 'public, max-age=15');
        setPageLinks(reply, req.url, body.meta.pagination);
        const rows = body.data as unknown[];
        return sendListFormat(req, reply, { item: SourceRow(), rows, meta: body.meta, format, jsonEtag: etagOf(JSON.stringify(body)), filename: 'sources' });
      }
      return views.send(req, reply, async () => {
        const body = await compute();
        return { body: JSON.stringify(body), pagination: body.meta.pagination };
      });
    },
  );
}
