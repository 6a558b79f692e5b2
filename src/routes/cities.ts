import type { FastifyInstance } from 'fastify';
import { CITIES, cityEntry } from '../cities/register.ts';
import { resolveCity } from '../cities/resolve.ts';
import { channelOf, paginate, parsePageRequest } from '../http/pagination.ts';
import { sendConditional } from '../http/send.ts';
import { META_CACHE_CONTROL } from '../http/cache-headers.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

const ENTRIES = CITIES.map(cityEntry);

export function registerCities(app: FastifyInstance, _ctx: RouteContext) {
  app.get('/api/v1/cities', {
    config: { doc: { summary: 'The city register (canonical slugs)', tags: ['Cities'], paginated: 'list', conditional: true } },
  }, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const { items, meta: pagination } = paginate(ENTRIES, parsePageRequest(q), channelOf(req.headers));
    const body = JSON.stringify({
      data: items,
      meta: { source_status: 'ok', total: ENTRIES.length, core: ENTRIES.filter((c) => c.core).length, pagination, provenance: 'Destatis Gemeindeverzeichnis, Wikidata; see src/cities/PROVENANCE.md' },
    });
    return sendConditional(req, reply, body, META_CACHE_CONTROL);
  });

  app.get('/api/v1/cities/:slug', {
    config: { doc: { summary: 'One register entry; tolerant slug (any case, umlauts, exonyms)', tags: ['Cities'], responses: { 200: 'Register entry', 404: 'Unknown city (did-you-mean hint)' } } },
  }, async (req, reply) => {
    const raw = (req.params as { slug: string }).slug;
    const city = resolveCity(raw);
    const meta: Record<string, unknown> = { source_status: 'ok', city: city.slug, canonical_path: `/api/v1/cities/${city.slug}` };
    if (raw !== city.slug) meta.resolved_from = raw;
    return reply.headers({ 'content-type': JSON_TYPE, 'cache-control': META_CACHE_CONTROL, 'content-location': `/api/v1/cities/${city.slug}` })
      .send(JSON.stringify({ data: cityEntry(city), meta }));
  });
}
