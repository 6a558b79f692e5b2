import { Readable } from 'node:stream';
import { forCity } from '../core/forms.ts';
import type { FastifyInstance } from 'fastify';
import { cityHistoryParts, EVERY_VALUES, historyRows, RAW_MAX_DAYS, recordableTypes } from '../services/history-answers.ts';
import { BucketRow, HistoryAnswer, PointRow } from '../services/history-schema.ts';
import type { HistoryAnswerParts } from '../services/history-cache.ts';
import { tableOf } from '../core/table.ts';
import { addVary, sendTagged } from '../http/send.ts';
import type { RouteContext } from './context.ts';
import { HISTORY_FORMATS, requestedFormat, sendHistoryCsv } from './formats.ts';

const CACHE_CONTROL = 'public, max-age=60';

/** The answer's three byte parts as one body, written as they are (a large answer is never copied into one buffer). */
function bodyOf(parts: HistoryAnswerParts): Buffer | Readable {
  return parts.body[1].length < 65_536 ? Buffer.concat(parts.body) : Readable.from(parts.body, { objectMode: false });
}

/** GET /api/v1/cities/{slug}/{type}/history: what the service recorded of a type in a city, as JSON or CSV. */
export function registerHistory(app: FastifyInstance, ctx: RouteContext) {
  const types = recordableTypes(ctx.rt.catalog).map((dt) => dt.type);
  app.get(
    '/api/v1/cities/:slug/:type/history',
    {
      config: {
        doc: {
          operationId: 'city_history',
          summary: 'Recorded values of one data type in one city over time',
          description: `The values the service recorded (at each type's own cadence, deduplicated by the upstream's timestamp) and, where the upstream publishes its past, backfilled ones (flagged). Without every: points as recorded, for at most ${RAW_MAX_DAYS} days; with every: buckets with min, mean and max per field. meta.series gives each field's unit, first and last point and gaps. A city or type without recorded points answers no_data with the date recording started.`,
          tags: ['History'],
          answer: { name: 'HistoryAnswer', schema: HistoryAnswer },
          formats: () => HISTORY_FORMATS,
          conditional: true,
          params: [
            { name: 'slug', in: 'path', type: 'string', required: true, description: 'City slug (tolerant)', example: 'berlin' },
            {
              name: 'type',
              in: 'path',
              type: 'string',
              required: true,
              enum: types,
              description: 'A recordable data type',
              example: 'power-load',
              invalid: 'route_not_found',
            },
            { name: 'from', type: 'string', description: 'Start (ISO date or date-time with zone; default: 7 days before to)', example: '2026-11-01T00:00Z' },
            {
              name: 'to',
              type: 'string',
              description:
                'End, exclusive (ISO date or date-time with zone; default: now, or just after the latest recorded point when nothing was recorded in the last 7 days, which meta.note then says)',
              example: '2026-11-28T00:00Z',
            },
            { name: 'every', type: 'string', enum: EVERY_VALUES, description: 'Downsample into buckets of this width (min/mean/max per bucket)' },
          ],
          exampleValues: { slug: 'berlin', type: 'power-load', every: '1d' },
          responses: {
            200: 'History rows; source_status ok or no_data',
            404: 'Unknown city, or a type that is not recorded (hint names the recordable ones)',
            422: 'invalid_parameter: from/to not ISO, from not before to, unknown every, a span too long without every or over 10,000 buckets, or more rows than HISTORY_MAX_POINTS (the hint names a coarser every)',
            503: 'history_store_unavailable: the history store does not answer (the problem names which)',
          },
        },
      },
    },
    async (req, reply) => {
      const { slug, type } = req.params as { slug: string; type: string };
      const format = requestedFormat(req, () => HISTORY_FORMATS);
      const parts = await cityHistoryParts(ctx, slug, type, req.query as Record<string, unknown>);
      addVary(reply, 'Accept');
      if (format === 'json') return sendTagged(req, reply, bodyOf(parts), parts.etag, CACHE_CONTROL);
      reply.header('cache-control', CACHE_CONTROL);
      const row = tableOf(parts.meta.every === null ? PointRow : BucketRow);
      const data = await historyRows(parts);
      const dt = ctx.rt.catalog.byType.get(type);
      const source = dt && typeof parts.meta.city === 'string' ? forCity(dt, parts.meta.city).source : undefined;
      return sendHistoryCsv(req, reply, source, { data, meta: parts.meta }, row, parts.etag);
    },
  );
}
