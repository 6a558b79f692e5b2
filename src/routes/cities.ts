import type { FastifyInstance } from 'fastify';
import { channelOf, setPageLinks } from '../http/pagination.ts';
import { META_CACHE_CONTROL } from '../http/cache-headers.ts';
import { etagOf } from '../http/conditional.ts';
import { addVary } from '../http/send.ts';
import { getCity, listCities } from '../services/cities.ts';
import { CityAnswer, CityEntry, CityListAnswer } from '../services/schemas.ts';
import { cityParam, JSON_TYPE, preparedViews, type RouteContext } from './context.ts';
import { listFormats, requestedFormat, sendListFormat } from './formats.ts';

export function registerCities(app: FastifyInstance, ctx: RouteContext) {
  const views = preparedViews(ctx, '/api/v1/cities', META_CACHE_CONTROL, 'Accept');
  const formats = () => listFormats(CityEntry());
  app.get(
    '/api/v1/cities',
    {
      config: {
        doc: {
          operationId: 'list_cities',
          summary: 'The city register (canonical slugs)',
          description:
            'The 84 cities with their canonical slug, official keys (AGS, ARS), state, centre, population and the aliases the slug resolver accepts,. Direct REST gets every city unless it asks for a page.',
          tags: ['Cities'],
          answer: { name: 'CityListAnswer', schema: CityListAnswer },
          paginated: 'list',
          formats,
          conditional: true,
          responses: { 200: 'City register', 304: 'Not modified', 422: 'invalid_parameter: bad page, limit or offset' },
        },
      },
    },
    async (req, reply) => {
      const format = requestedFormat(req, formats);
      // Before the view's own Vary, as the lane's prepared headers have it (http/prepared-views.ts).
      addVary(reply, 'Accept');
      const compute = () => listCities(req.query as Record<string, unknown>, channelOf(req.headers));
      if (format !== 'json') {
        const body = compute();
        reply.header('cache-control', META_CACHE_CONTROL);
        setPageLinks(reply, req.url, body.meta.pagination);
        const rows = body.data as unknown[];
        return sendListFormat(req, reply, { item: CityEntry(), rows, meta: body.meta, format, jsonEtag: etagOf(JSON.stringify(body)), filename: 'cities' });
      }
      return views.send(req, reply, () => {
        const body = compute();
        return { body: JSON.stringify(body), pagination: body.meta.pagination };
      });
    },
  );

  app.get(
    '/api/v1/cities/:city',
    {
      config: {
        doc: {
          operationId: 'get_city',
          summary: 'One register entry; tolerant slug (any case, umlauts, exonyms)',
          description:
            'One city of the register. The slug is tolerant (Köln, koeln, Koln, Cologne); meta.city names the canonical slug and meta.resolved_from the spelling asked for. An unknown city is a 404 with a did-you-mean hint.',
          tags: ['Cities'],
          answer: { name: 'CityAnswer', schema: CityAnswer },
          formats,
          responses: { 200: 'Register entry', 404: 'Unknown city (did-you-mean hint)' },
        },
      },
    },
    async (req, reply) => {
      const format = requestedFormat(req, formats);
      const body = getCity(cityParam(req));
      const text = JSON.stringify(body);
      reply.headers({ 'cache-control': META_CACHE_CONTROL, 'content-location': `/api/v1/cities/${body.meta.city}` });
      addVary(reply, 'Accept');
      if (format !== 'json')
        return sendListFormat(req, reply, {
          item: CityEntry(),
          rows: [body.data],
          meta: body.meta,
          format,
          jsonEtag: etagOf(text),
          filename: `city-${body.meta.city}`,
        });
      return reply.header('content-type', JSON_TYPE).send(text);
    },
  );
}
