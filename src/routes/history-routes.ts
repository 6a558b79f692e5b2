import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routePath, type DataType } from '../core/data-type.ts';
import type { RouteDoc } from '../http/route-doc.ts';
import { forCity } from '../core/forms.ts';
import { cityHistoryParts, EVERY_VALUES, historyPath, historyRows, RAW_MAX_DAYS, recordableType, recordableTypes } from '../services/history-answers.ts';
import { findCity } from '../cities/resolve.ts';
import { ProblemError } from '../core/problem.ts';
import { BucketRow, HistoryAnswer, PointRow } from '../services/history-schema.ts';
import type { HistoryAnswerParts } from '../services/history-cache.ts';
import { tableOf } from '../core/table.ts';
import { addVary, sendTagged } from '../http/send.ts';
import { cityParam, type RouteContext } from './context.ts';
import { HISTORY_FORMATS, requestedFormat, sendHistoryCsv } from './formats.ts';

const CACHE_CONTROL = 'public, max-age=60';

/** The answer's three byte parts as one body, written as they are (a large answer is never copied into one buffer). */
function bodyOf(parts: HistoryAnswerParts): Buffer | Readable {
  return parts.body[1].length < 65_536 ? Buffer.concat(parts.body) : Readable.from(parts.body, { objectMode: false });
}

/**
 * The live paths' segments whose type is recorded: `/api/v1/live/{city}/air` (or a deprecated live
 * alias such as `/api/v1/live/{city}/parking`) has its history at `<that path>/history` as well.
 */
function liveHistoryTypes(recordable: readonly DataType[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const dt of recordable) {
    for (const path of [routePath(dt), ...(dt.aliases ?? [])]) {
      const segment = /^\/api\/v1\/live\/\{city\}\/([^/{}]+)$/.exec(path)?.[1];
      if (segment) out.set(segment, dt.type);
    }
  }
  return out;
}

/**
 * GET /api/v1/cities/{city}/{type}/history, and the same answer at a recorded live type's own path
 * plus /history: what the service recorded of a type in a city, as JSON or CSV.
 */
export function registerHistory(app: FastifyInstance, ctx: RouteContext) {
  const recordable = recordableTypes(ctx.rt.catalog);
  const types = recordable.map((dt) => dt.type);
  const live = liveHistoryTypes(recordable);
  const params: RouteDoc['params'] = [
    { name: 'city', in: 'path', type: 'string', required: true, description: 'City slug (tolerant)', example: 'berlin' },
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
  ];
  const doc = {
    summary: 'Recorded values of one data type in one city over time',
    description: `Values recorded at each type's own cadence (deduplicated by the upstream's timestamp) and, where the upstream publishes its past, backfilled ones (flagged). Without every: points as recorded, for at most ${RAW_MAX_DAYS} days; with every: min, mean and max per bucket. meta.series: each field's unit, first and last point, gaps. Nothing recorded: no_data with the date recording started. A live type's history is also at its live path plus /history.`,
    tags: ['History'],
    answer: { name: 'HistoryAnswer', schema: HistoryAnswer },
    formats: () => HISTORY_FORMATS,
    conditional: true,
    responses: {
      200: 'History rows; source_status ok or no_data',
      404: 'Unknown city, or a type that is not recorded (the hint names the path to ask)',
      422: 'invalid_parameter: from/to not ISO, from not before to, unknown every, a span too long without every or over 10,000 buckets, or more rows than HISTORY_MAX_POINTS (the hint names a coarser every)',
      503: 'history_store_unavailable: the history store does not answer (the problem names which)',
    },
  } satisfies Partial<RouteDoc>;
  const answer = async (req: FastifyRequest, reply: FastifyReply, type: string) => {
    const format = requestedFormat(req, () => HISTORY_FORMATS);
    const parts = await cityHistoryParts(ctx, cityParam(req), type, req.query as Record<string, unknown>);
    addVary(reply, 'Accept');
    if (format === 'json') return sendTagged(req, reply, bodyOf(parts), parts.etag, CACHE_CONTROL);
    reply.header('cache-control', CACHE_CONTROL);
    const row = tableOf(parts.meta.every === null ? PointRow : BucketRow);
    const data = await historyRows(parts);
    const dt = ctx.rt.catalog.byType.get(type);
    const source = dt && typeof parts.meta.city === 'string' ? forCity(dt, parts.meta.city).source : undefined;
    return sendHistoryCsv(req, reply, source, { data, meta: parts.meta }, row, parts.etag);
  };
  const typeParam = (req: FastifyRequest) => (req.params as { type?: string }).type ?? '';
  app.get(
    '/api/v1/cities/:city/:type/history',
    {
      config: {
        doc: {
          ...doc,
          operationId: 'city_history',
          params,
          exampleValues: { city: 'berlin', type: 'power-load', every: '1d' },
        },
      },
    },
    (req, reply) => answer(req, reply, typeParam(req)),
  );
  // The same answer at a recorded live type's own path plus /history (undocumented: the canonical operation names it).
  app.get('/api/v1/live/:city/:type/history', async (req, reply) => {
    const name = typeParam(req);
    const type = live.get(name);
    if (type) return answer(req, reply, type);
    // Not a live type: a type recorded at all has its history under /api/v1/cities, which the 404 names.
    recordableType(ctx.rt.catalog, name, cityParam(req));
    const path = historyPath(name, findCity(cityParam(req))?.slug ?? null);
    throw new ProblemError('route_not_found', 'this data type has no live path', `Its history is at ${path}.`, { suggested_path: path });
  });
}
