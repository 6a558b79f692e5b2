import type { FastifyInstance } from 'fastify';
import { findCity } from '../cities/resolve.ts';
import { ProblemError } from '../http/problem.ts';
import { channelOf, paginate, parsePageRequest, parseSort, sortBy } from '../http/pagination.ts';
import { sendConditional } from '../http/send.ts';
import { mapLimit } from '../pipeline/limit.ts';
import type { RouteContext } from './context.ts';

const SORTS = ['city', 'source_status'] as const;

type Item = { city: string; data: unknown; source_status: string; cache_status?: string; attribution?: unknown; note?: string };

/** Compare one resource across cities; every city carries its own status, never an overall 5xx. */
export function registerCompare(app: FastifyInstance, { rt, pipeline }: RouteContext) {
  const resources = [...rt.catalog.byCompareResource.keys()];
  app.get('/api/v1/compare', {
    config: {
      doc: {
        summary: 'Compare one resource across cities',
        tags: ['Compare'], paginated: 'meta', conditional: true,
        params: [
          { name: 'cities', type: 'string', required: true, description: `Comma-separated city slugs (tolerant), at most MAX_CITIES (${rt.config.maxCities})`, invalid: 'invalid_request' },
          { name: 'resource', type: 'string', required: true, enum: resources, description: 'What to compare', invalid: 'invalid_request' },
          { name: 'sort', type: 'string', enum: SORTS, description: 'Sort field', invalid: 'invalid_request' },
          { name: 'order', type: 'string', enum: ['asc', 'desc'], description: 'Sort order (default asc)', invalid: 'invalid_request' },
        ],
        responses: { 200: 'Compare items', 304: 'Not modified', 400: 'invalid_request: unknown resource, empty or too many cities, bad paging or sort' },
      },
    },
  }, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const resource = typeof q.resource === 'string' ? q.resource : '';
    const dt = rt.catalog.byCompareResource.get(resource);
    if (!dt) throw new ProblemError('invalid_request', resource ? `unknown resource "${resource.slice(0, 40)}"` : 'missing resource', `resource must be one of: ${resources.join(', ')}.`, { parameter: 'resource' });
    const names = (typeof q.cities === 'string' ? q.cities : '').split(',').map((s) => s.trim()).filter(Boolean);
    if (names.length === 0) throw new ProblemError('invalid_request', 'cities is empty', 'Pass cities=berlin,hamburg (comma-separated slugs; GET /api/v1/cities lists them).', { parameter: 'cities' });
    if (names.length > rt.config.maxCities) throw new ProblemError('invalid_request', `${names.length} cities given, at most ${rt.config.maxCities} allowed`, `Split the call; MAX_CITIES is ${rt.config.maxCities}.`, { parameter: 'cities', max_cities: rt.config.maxCities });
    const { sort, order } = parseSort(q, SORTS);
    const page = parsePageRequest(q);

    const items = await mapLimit(names, rt.config.compareConcurrency, async (name): Promise<Item> => {
      const city = findCity(name);
      if (!city) return { city: name, data: null, source_status: 'not_found', note: 'unknown city; GET /api/v1/cities lists the slugs' };
      try {
        const o = await pipeline.run(dt, city, {}, { noPaging: true });
        const raw = o.data();
        const data = raw !== null && dt.compare?.summarise ? dt.compare.summarise(raw) : raw;
        const status = o.status === 'not_covered' ? 'no_data' : o.status;
        return { city: city.slug, data: status === 'ok' ? data : null, source_status: status, ...(o.cacheStatus ? { cache_status: o.cacheStatus } : {}), attribution: o.attribution };
      } catch (err) {
        return { city: city.slug, data: null, source_status: 'error', note: err instanceof ProblemError ? err.detail : 'source failed' };
      }
    });
    const sorted = sort ? sortBy(items, (x) => x[sort], order) : order === 'desc' ? [...items].reverse() : items;
    const { items: pageItems, meta: pagination } = paginate(sorted, page, channelOf(req.headers), true);
    const meta: Record<string, unknown> = {
      source_status: 'ok', resource, type: dt.type, total: items.length, max_cities: rt.config.maxCities,
      statuses: countBy(items.map((i) => i.source_status)), sort, order, pagination,
    };
    if (rt.config.demo) meta.demo = true;
    const basis = JSON.stringify({ data: pageItems.map(({ cache_status: _c, ...rest }) => rest), meta });
    return sendConditional(req, reply, JSON.stringify({ data: pageItems, meta }), 'public, max-age=60', basis);
  });
}

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
