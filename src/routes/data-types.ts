import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dataSchemaOf, fillTemplate, operationIdOf, routePath, type DataType } from '../core/data-type.ts';
import { jsonSchemaOf } from '../core/schema.ts';
import { channelOf, setPageLinks } from '../http/pagination.ts';
import { cacheControlFor, cacheStatusHeader } from '../http/cache-headers.ts';
import { deprecationHeaders } from '../http/deprecation.ts';
import { envelopeBody } from '../pipeline/run.ts';
import { GROUP_LABELS } from '../core/data-type.ts';
import { JSON_TYPE, toFastifyPath, type RouteContext } from './context.ts';
import type { RouteDoc } from '../http/route-doc.ts';

/** Every catalog entry becomes a route (plus its deprecated aliases); no handler per type. */
export function registerDataTypes(app: FastifyInstance, { rt, pipeline }: RouteContext) {
  for (const dt of rt.catalog.all) {
    const path = routePath(dt);
    const doc: RouteDoc = {
      summary: `${dt.summary} (Tier ${dt.source.tier})`,
      description: dt.description,
      tags: [GROUP_LABELS[dt.group]],
      params: dt.params,
      paginated: dt.list ? 'list' : undefined,
      operationId: operationIdOf(dt),
      data: { name: dataSchemaName(dt), schema: jsonSchemaOf(dataSchemaOf(dt)) },
      exampleKey: dt.type,
      exampleValues: { ...(dt.example.city ? { slug: dt.example.city, city: dt.example.city } : {}), ...dt.example.params },
      responses: {
        200: 'Envelope; source_status ok, no_data, disabled or not_covered',
        404: dt.scope === 'global' ? 'Not found' : 'Unknown city (did-you-mean hint)',
        ...(dt.params?.length || dt.list ? { 422: dt.list ? 'Invalid parameter or paging value (page, limit, offset)' : 'Invalid parameter' } : {}),
        ...(dt.cache !== 'stored' ? { 503: 'Upstream down and nothing cached (hint: GET /api/v1/health)' } : {}),
      },
    };
    app.get(toFastifyPath(path), { config: { doc } }, handler(dt, null));
    for (const alias of dt.aliases ?? []) {
      app.get(
        toFastifyPath(alias),
        { config: { doc: { ...doc, deprecated: true, successor: path, operationId: `${operationIdOf(dt)}_deprecated_${aliasName(alias)}` } } },
        handler(dt, path),
      );
    }
  }

  function handler(dt: DataType, successor: string | null) {
    const cacheControl = cacheControlFor(dt.cache, dt.live !== undefined);
    const hitHeaders = { 'content-type': JSON_TYPE, 'cache-control': cacheControl, 'cache-status': cacheStatusHeader('HIT') };
    return async (req: FastifyRequest, reply: FastifyReply) => {
      const p = req.params as Record<string, string>;
      const citySlug = p.slug ?? p.city ?? dt.fixedCity ?? null;
      const plain = req.url.indexOf('?') < 0;
      const channel = channelOf(req.headers);
      if (plain && channel === 'rest' && !successor) {
        const body = pipeline.fastHit(dt, citySlug);
        if (body !== null) return reply.headers(hitHeaders).send(body);
      }
      // Path parameters other than the city join the query in the data type's parameter table.
      const input = { ...(req.query as Record<string, unknown>), ...p };
      const o = await pipeline.run(dt, citySlug, input, { channel, plain });
      reply.header('content-type', JSON_TYPE).header('cache-control', o.status === 'ok' || o.status === 'no_data' ? cacheControl : 'public, max-age=60');
      if (o.cacheStatus) reply.header('cache-status', cacheStatusHeader(o.cacheStatus));
      setPageLinks(reply, req.url, o.meta.pagination);
      if (successor) reply.headers(deprecationHeaders(fillTemplate(successor, o.city ? { ...p, slug: o.city.slug, city: o.city.slug } : p)));
      return reply.send(envelopeBody(o));
    };
  }
}

/** `air-uba` -> `AirUbaData`: the components.schemas name of a data type's `data`. */
function dataSchemaName(dt: DataType): string {
  return dt.type.replace(/(^|-)(\w)/g, (_, _dash: string, c: string) => c.toUpperCase()) + 'Data';
}

function aliasName(alias: string): string {
  return alias
    .split('/')
    .filter((s) => s && !s.startsWith('{'))
    .slice(2)
    .join('_')
    .replace(/-/g, '_');
}
