import type { FastifyInstance } from 'fastify';
import { channelOf, setPageLinks } from '../http/pagination.ts';
import { addVary } from '../http/send.ts';
import { etagOf } from '../http/conditional.ts';
import { COMPARE_FORMATS, requestedFormat, sendCompareFormat } from './formats.ts';
import { compareCities, compareResources, COMPARE_SORTS, valueResources } from '../services/compare.ts';
import { CompareAnswer } from '../services/schemas.ts';
import { compareFeatures } from '../http/openapi-formats.ts';
import { preparedViews, type RouteContext } from './context.ts';

/** Compare one resource across cities; every city carries its own status, never an overall 5xx. */
export function registerCompare(app: FastifyInstance, ctx: RouteContext) {
  const { rt } = ctx;
  const views = preparedViews(ctx, '/api/v1/compare', 'public, max-age=60', 'Accept');
  const answer = async (query: Record<string, unknown>, channel: ReturnType<typeof channelOf>) => {
    const body = await compareCities(ctx, query, channel);
    // cache_status differs between otherwise identical answers; the ETag must not.
    const etagBasis = JSON.stringify({ data: body.data.map(({ cache_status: _c, ...rest }) => rest), meta: body.meta });
    return { body, etagBasis };
  };
  app.get(
    '/api/v1/compare',
    {
      config: {
        doc: {
          operationId: 'compare_cities',
          summary: 'Compare one resource across cities',
          description:
            'One resource (a data type, or its summary) for up to MAX_CITIES cities. Every city carries its own source_status, a failing city never fails the call; meta.statuses counts the items per status. Resources that declare a numeric value (meta.value_field) sort by it with sort=value.',
          tags: ['Compare'],
          answer: { name: 'CompareAnswer', schema: CompareAnswer },
          paginated: 'meta',
          formats: () => COMPARE_FORMATS,
          features: { name: 'CompareFeatures', schema: compareFeatures },
          conditional: true,
          params: [
            {
              name: 'cities',
              type: 'string',
              required: true,
              description: `Comma-separated city slugs (tolerant), at most MAX_CITIES (${rt.config.maxCities})`,
              example: 'koeln,muenchen',
              invalid: 'invalid_request',
            },
            {
              name: 'resource',
              type: 'string',
              required: true,
              enum: compareResources(rt.catalog),
              description: 'What to compare',
              invalid: 'invalid_request',
            },
            {
              name: 'sort',
              type: 'string',
              enum: COMPARE_SORTS,
              description: `Sort field; \`value\` orders by the resource's declared numeric value (meta.value_field), for: ${valueResources(rt.catalog).join(', ')}`,
              invalid: 'invalid_request',
            },
            { name: 'order', type: 'string', enum: ['asc', 'desc'], description: 'Sort order (default asc)', invalid: 'invalid_request' },
            {
              name: 'at',
              type: 'string',
              description:
                'A past moment (ISO date-time with zone): each city answers with its recorded values at or before it (history), not the current ones',
              example: '2026-11-01T12:00Z',
            },
          ],
          responses: {
            200: 'Compare items',
            304: 'Not modified',
            400: 'invalid_request: unknown resource (did-you-mean hint), empty or too many cities, bad sort',
            422: 'invalid_parameter: bad page, limit or offset, or at not an ISO date-time or in the future',
          },
        },
      },
    },
    async (req, reply) => {
      const format = requestedFormat(req, () => COMPARE_FORMATS);
      addVary(reply, 'Accept');
      // CSV and GeoJSON are written per request; only the JSON answer is kept as a view.
      if (format !== 'json') {
        const { body, etagBasis } = await answer(req.query as Record<string, unknown>, channelOf(req.headers));
        setPageLinks(reply, req.url, body.meta.pagination);
        return sendCompareFormat(req, reply, rt.catalog, body, format, etagOf(etagBasis));
      }
      return views.send(req, reply, async () => {
        const { body, etagBasis } = await answer(req.query as Record<string, unknown>, channelOf(req.headers));
        return { body: JSON.stringify(body), etagBasis, pagination: body.meta.pagination };
      });
    },
  );
}
