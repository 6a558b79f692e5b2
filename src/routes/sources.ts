import type { FastifyInstance } from 'fastify';
import { channelOf, paginate, parsePageRequest, parseSort, sortBy } from '../http/pagination.ts';
import { sendConditional } from '../http/send.ts';
import { DEFAULT_BREAKER } from '../pipeline/breakers.ts';
import type { RouteContext } from './context.ts';

const SORTS = ['source', 'enabled', 'license'] as const;

export function registerSources(app: FastifyInstance, { rt }: RouteContext) {
  app.get('/api/v1/sources', {
    config: {
      doc: {
        summary: 'State of every upstream source: toggle, circuit breaker, licence, last success and failure',
        tags: ['Operational'], paginated: 'meta', conditional: true,
        params: [
          { name: 'sort', type: 'string', enum: SORTS, description: 'Sort field', invalid: 'invalid_request' },
          { name: 'order', type: 'string', enum: ['asc', 'desc'], description: 'Sort order (default asc)', invalid: 'invalid_request' },
        ],
        responses: { 200: 'Sources', 304: 'Not modified', 400: 'invalid_request: unknown sort field or order, bad page/limit/offset' },
      },
    },
  }, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const { sort, order } = parseSort(q, SORTS);
    const page = parsePageRequest(q);
    const items = await Promise.all(rt.config.sourceList.map(async (s) => {
      const settings = rt.config.sources[s.id];
      return {
        source: s.id,
        name: s.name,
        enabled: rt.sourceEnabled(s),
        toggle: settings.enabled,
        credentials: (s.credentials ?? []).length === 0 ? 'none' : settings.missingCredentials.length === 0 ? 'configured' : 'missing',
        breaker_state: await rt.breakers.state(s),
        breaker: { threshold: s.breaker?.threshold ?? DEFAULT_BREAKER.threshold, cooldown_seconds: s.breaker?.cooldownSeconds ?? DEFAULT_BREAKER.cooldownSeconds },
        license: s.license,
        license_url: s.licenseUrl,
        tier: s.tier,
        attribution: s.attribution,
        ...rt.health.view(s.id),
      };
    }));
    const sorted = sort ? sortBy(items, (x) => x[sort], order) : order === 'desc' ? [...items].reverse() : items;
    const { items: pageItems, meta: pagination } = paginate(sorted, page, channelOf(req.headers), true);
    const body = JSON.stringify({ data: pageItems, meta: { source_status: 'ok', total: items.length, page: pagination.page, limit: pagination.limit, offset: pagination.offset, sort, order, pagination } });
    return sendConditional(req, reply, body, 'public, max-age=15');
  });
}
