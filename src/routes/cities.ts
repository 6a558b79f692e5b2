import type { FastifyInstance } from 'fastify';
import { channelOf, setPageLinks, type PaginationMeta } from '../http/pagination.ts';
import { sendTagged } from '../http/send.ts';
import { etagOf } from '../http/conditional.ts';
import { META_CACHE_CONTROL } from '../http/cache-headers.ts';
import { getCity, listCities } from '../services/cities.ts';
import { CityAnswer, CityListAnswer } from '../services/schemas.ts';
import { JSON_TYPE, type RouteContext } from './context.ts';

/** Distinct URL/channel pairs whose list answer is kept; the register does not change while the process runs. */
const MAX_PREPARED = 256;

export function registerCities(app: FastifyInstance, _ctx: RouteContext) {
  const prepared = new Map<string, { body: Buffer; etag: string; pagination: PaginationMeta | undefined }>();
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
    async (req, reply) => {
      const channel = channelOf(req.headers);
      const key = `${channel} ${req.url}`;
      let answer = prepared.get(key);
      if (!answer) {
        const body = listCities(req.query as Record<string, unknown>, channel);
        const json = JSON.stringify(body);
        answer = { body: Buffer.from(json), etag: etagOf(json), pagination: body.meta.pagination as PaginationMeta | undefined };
        if (prepared.size >= MAX_PREPARED) prepared.clear();
        prepared.set(key, answer);
      }
      setPageLinks(reply, req.url, answer.pagination);
      return sendTagged(req, reply, answer.body, answer.etag, META_CACHE_CONTROL);
    },
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
