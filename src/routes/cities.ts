import type { FastifyInstance } from 'fastify';
import { channelOf, setPageLinks } from '../http/pagination.ts';
import { sendConditional } from '../http/send.ts';
import { META_CACHE_CONTROL } from '../http/cache-headers.ts';
import { getCity, listCities } from '../services/cities.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

export function registerCities(app: FastifyInstance, _ctx: RouteContext) {
  app.get(
    '/api/v1/cities',
    {
      config: {
        doc: {
          summary: 'The city register (canonical slugs)',
          tags: ['Cities'],
          paginated: 'list',
          conditional: true,
          responses: { 200: 'City register', 304: 'Not modified', 422: 'invalid_parameter: bad page, limit or offset' },
        },
      },
    },
    async (req, reply) => {
      const body = listCities(req.query as Record<string, unknown>, channelOf(req.headers));
      setPageLinks(reply, req.url, body.meta.pagination);
      return sendConditional(req, reply, JSON.stringify(body), META_CACHE_CONTROL);
    },
  );

  app.get(
    '/api/v1/cities/:slug',
    {
      config: {
        doc: {
          summary: 'One register entry; tolerant slug (any case, umlauts, exonyms)',
          tags: ['Cities'],
          responses: { 200: 'Register entry', 404: 'Unknown city (did-you-mean hint)' },
        },
      },
    },
    async (req, reply) => {
      const body = getCity((req.params as { slug: string }).slug);
      return reply
        .headers({ 'content-type': JSON_TYPE, 'cache-control': META_CACHE_CONTROL, 'content-location': `/api/v1/cities/${body.meta.city}` })
        .send(JSON.stringify(body));
    },
  );
}
