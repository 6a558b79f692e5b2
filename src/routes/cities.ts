import type { FastifyInstance } from 'fastify';
import { channelOf } from '../http/pagination.ts';
import { META_CACHE_CONTROL } from '../http/cache-headers.ts';
import { getCity, listCities } from '../services/cities.ts';
import { CityAnswer, CityListAnswer } from '../services/schemas.ts';
import { JSON_TYPE, preparedViews, type RouteContext } from './context.ts';

export function registerCities(app: FastifyInstance, ctx: RouteContext) {
  const views = preparedViews(ctx, '/api/v1/cities', META_CACHE_CONTROL);
  app.get(
    '/api/v1/cities',
    {
      config: {
        doc: {
          operationId: 'list_cities',
          summary: 'The city register (canonical slugs)',
          description:
            'The 84 cities with their canonical slug, official keys (AGS, ARS), state, centre, population and the aliases the slug resolver accepts. Direct REST gets every city unless it asks for a page.',
          tags: ['Cities'],
          answer: { name: 'CityListAnswer', schema: CityListAnswer },
          paginated: 'list',
          conditional: true,
          responses: { 200: 'City register', 304: 'Not modified', 422: 'invalid_parameter: bad page, limit or offset' },
        },
      },
    },
    async (req, reply) =>
      views.send(req, reply, () => {
        const body = listCities(req.query as Record<string, unknown>, channelOf(req.headers));
        return { body: JSON.stringify(body), pagination: body.meta.pagination };
      }),
  );

  app.get(
    '/api/v1/cities/:slug',
    {
      config: {
        doc: {
          operationId: 'get_city',
          summary: 'One register entry; tolerant slug (any case, umlauts, exonyms)',
          description:
            'One city of the register. The slug is tolerant (Köln, koeln, Koln, Cologne); meta.city names the canonical slug and meta.resolved_from the spelling asked for. An unknown city is a 404 with a did-you-mean hint.',
          tags: ['Cities'],
          answer: { name: 'CityAnswer', schema: CityAnswer },
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
