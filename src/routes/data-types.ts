import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { briefDescription, coveredCities, dataSchemaOf, fillTemplate, operationIdOf, routePath, tierLabel, type DataType } from '../core/data-type.ts';
import { forCity } from '../core/forms.ts';
import { jsonSchemaOf } from '../core/schema.ts';
import { CHANNEL_VARY, channelOf, setPageLinks } from '../http/pagination.ts';
import { cacheControlFor, cacheStatusHeader } from '../http/cache-headers.ts';
import { deprecationHeaders } from '../http/deprecation.ts';
import { findCity } from '../cities/resolve.ts';
import type { City } from '../cities/register.ts';
import { envelopeBody, etagOfOutcome } from '../pipeline/run.ts';
import { addVary, sendPrepared } from '../http/send.ts';
import type { LaneTarget } from '../http/hit-lane.ts';
import { GROUP_LABELS } from '../core/data-type.ts';
import { JSON_TYPE, laneObserver, toFastifyPath, type RouteContext } from './context.ts';
import type { RouteDoc } from '../http/route-doc.ts';
import { typedFeatures } from '../http/openapi-formats.ts';
import { cityFamilies, dispatching, familyAt, notCoveredIn, type Member } from './city-families.ts';
import { STREAM_SUFFIX, streamRoutes, streamsDoc } from './streams.ts';
import { formatsOf, rowSchemaOf } from '../core/formats.ts';
import { requestedFormat, sendDataFormat } from './formats.ts';
import { emptyOutcome } from '../pipeline/envelope.ts';
import { etagOf } from '../http/conditional.ts';

/**
 * The longest operation description in the OpenAPI document: the leading sentences of the data
 * type's description. The whole text (method, sources per city) is on the data-type reference,
 * which keeps the document within its budget (test/openapi-tools.test.ts).
 */
const OPERATION_DESCRIPTION_MAX = 120;

/** The operation's description, with a link to the whole text when it is cut short (relative: Swagger UI is served here too). */
function operationDescription(dt: DataType): string {
  const { text, cut } = briefDescription(dt, OPERATION_DESCRIPTION_MAX);
  return cut ? `${text} [More](/docs/data-types#${dt.type})` : text;
}

/** Every catalog entry becomes a route (plus its deprecated aliases); no handler per type. */
export function registerDataTypes(app: FastifyInstance, { rt, pipeline, lane }: RouteContext) {
  // Literal per-city paths and the template path of their shape answer any spelling of a city (city-families.ts).
  const families = cityFamilies(rt.catalog.all);
  const streams = streamRoutes(app, { rt, pipeline });
  const memberHandler = (m: Member) => (m.successor ? deprecated(m.successor, handler(m.dt, m.successor)) : handler(m.dt, null));
  /** The route's own handler, or, at a family's template, the family's dispatch in front of it. */
  const routed = (dt: DataType, path: string, successor: string | null) => {
    const own = handler(dt, successor);
    const family = familyAt(families, path);
    return family?.general?.dt === dt ? dispatching(family, memberHandler, own) : own;
  };
  for (const dt of rt.catalog.all) {
    const path = routePath(dt);
    const doc: RouteDoc = {
      summary: `${dt.summary} (${tierLabel(dt)})`,
      description: operationDescription(dt),
      tags: [GROUP_LABELS[dt.group]],
      params: dt.params,
      paginated: dt.list ? 'list' : undefined,
      formats: () => formatsOf(dt),
      operationId: operationIdOf(dt),
      data: { name: dataSchemaName(dt), schema: () => jsonSchemaOf(dataSchemaOf(dt)) },
      features: {
        name: dataSchemaName(dt).replace(/Data$/, 'Features'),
        schema: () => dataFeatures(dt),
      },
      pathValues: livePathCities(dt),
      exampleKey: dt.type,
      exampleValues: { ...(dt.example.city ? { city: dt.example.city } : {}), ...dt.example.params },
      responses: {
        200: 'OK',
        404: dt.scope === 'global' ? 'Not found' : 'Unknown city (did-you-mean hint)',
        ...(dt.params?.length || dt.list ? { 422: dt.list ? 'Invalid parameter or paging value (page, limit, offset)' : 'Invalid parameter' } : {}),
        ...(dt.cache !== 'stored' ? { 503: 'Upstream down and nothing cached (hint: GET /api/v1/health)' } : {}),
      },
    };
    const canonical = routed(dt, path, null);
    app.get(toFastifyPath(path), { config: { doc: streamsDoc(dt, doc) } }, canonical);
    // The stream's own path (routes/streams.ts): the same handler, which sees the suffix.
    if (streams.streams(dt)) app.get(toFastifyPath(path + STREAM_SUFFIX), canonical);
    for (const alias of dt.aliases ?? []) {
      const options = {
        // Set before the handler runs, so every answer of the alias carries them: 2xx, 4xx (unknown city,
        // bad parameter) and 5xx problems alike, not only the envelopes the handler sends.
        onRequest: (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
          reply.headers(deprecationHeaders(successorPath(path, req.params as Record<string, string>)));
          done();
        },
      };
      const aliased = routed(dt, alias, path);
      app.get(
        toFastifyPath(alias),
        {
          ...options,
          // A deprecated path's cities are listed once, on its successor.
          config: {
            doc: { ...doc, pathValues: undefined, deprecated: true, successor: path, operationId: `${operationIdOf(dt)}_deprecated_${aliasName(alias)}` },
          },
        },
        aliased,
      );
      if (streams.streams(dt)) app.get(toFastifyPath(alias + STREAM_SUFFIX), options, aliased);
    }
  }
  // A family without a template type of its own: its template route (undocumented: the literal paths are) takes
  // any spelling of its cities; another city of the register is not covered.
  for (const family of families.filter((f) => f.general === null)) {
    const successor = [...family.members.values()][0]?.successor ?? null;
    const notCovered = notCoveredIn(family, rt.config.demo);
    const first = [...family.members.values()][0]!.dt;
    const answer = async (req: FastifyRequest, reply: FastifyReply) => {
      const format = requestedFormat(req, () => formatsOf(first));
      const meta = notCovered(req);
      if (successor) reply.headers(deprecationHeaders(successorPath(successor, { city: String(meta.city) })));
      const body = JSON.stringify({ data: null, meta, attribution: null });
      reply.header('cache-control', 'public, max-age=60');
      addVary(reply, 'Accept');
      // CSV and GeoJSON: the header row / an empty collection with the status, as for a covered type without data.
      if (format !== 'json') return sendDataFormat(req, reply, first, emptyOutcome(null, 'not_covered', meta), format, etagOf(body));
      return reply.header('content-type', JSON_TYPE).send(body);
    };
    const dispatch = dispatching(family, memberHandler, answer);
    app.get(toFastifyPath(family.template), dispatch);
    // A literal member's /stream for any spelling of its city; another city gets the not_covered envelope, not a stream.
    if ([...family.members.values()].some((m) => streams.streams(m.dt))) app.get(toFastifyPath(family.template + STREAM_SUFFIX), dispatch);
  }

  /** An alias member reached through its family: the Deprecation and Link headers its own route's hook would set. */
  function deprecated(successor: string, h: ReturnType<typeof handler>) {
    return (req: FastifyRequest, reply: FastifyReply) => {
      reply.headers(deprecationHeaders(successorPath(successor, req.params as Record<string, string>)));
      return h(req, reply);
    };
  }

  function handler(dt: DataType, successor: string | null) {
    // A list pages by channel (GPT and MCP clients get bounded pages): shared caches must keep the channels apart.
    // Accept picks JSON, CSV or GeoJSON (routes/formats.ts).
    const vary = dt.list ? `${CHANNEL_VARY}, Accept` : 'Accept';
    /** Cache headers per city: a per-city source variant may declare its own cache windows. */
    const byCache = new Map<DataType['cache'], { cacheControl: string; laneHeaders: LaneTarget['headers'] }>();
    const headersOf = (slug: string | null) => {
      const cache = (slug === null ? dt : forCity(dt, slug)).cache;
      let h = byCache.get(cache);
      if (!h) {
        const cacheControl = cacheControlFor(cache, dt.live !== undefined);
        h = {
          cacheControl,
          laneHeaders: [['cache-control', cacheControl], ...(vary ? [['vary', vary] as const] : [])],
        };
        byCache.set(cache, h);
      }
      return h;
    };
    const targets = new Map<string, LaneTarget>();
    /** What the HIT lane serves for this data type and city (one per city, shared by its URLs); the prepared answer brings its Cache-Status. */
    const targetFor = (city: City, route: string): LaneTarget => {
      let t = targets.get(city.slug);
      if (!t) {
        t = { current: pipeline.hitSource(dt, city), headers: headersOf(city.slug).laneHeaders, observe: laneObserver(rt, route) };
        targets.set(city.slug, t);
      }
      return t;
    };
    return async (req: FastifyRequest, reply: FastifyReply) => {
      const p = req.params as Record<string, string>;
      const citySlug = p.city ?? dt.fixedCity ?? null;
      const channel = channelOf(req.headers);
      // Path parameters other than the city join the query in the data type's parameter table.
      const input = { ...(req.query as Record<string, unknown>), ...p };
      const streaming = streams.wants(dt, req);
      if (streaming && (await streams.serve(dt, req, reply, citySlug, input))) return;
      // A stream's request that is not streamed (a city outside the coverage) gets the JSON envelope.
      const format = streaming ? 'json' : requestedFormat(req, () => formatsOf(dt));
      const o = await pipeline.run(dt, citySlug, input, { channel, plain: req.url.indexOf('?') < 0 });
      const etag = etagOfOutcome(o);
      const cacheControl = headersOf(o.city?.slug ?? null).cacheControl;
      reply.header('cache-control', o.status === 'ok' || o.status === 'no_data' ? cacheControl : 'public, max-age=60').header('etag', etag);
      if (o.cacheStatus) reply.header('cache-status', cacheStatusHeader(o.cacheStatus));
      if (vary) addVary(reply, vary);
      setPageLinks(reply, req.url, o.meta.pagination);
      // A prepared HIT: later requests for this very URL (a tolerant slug, an ignored query) take the lane.
      // Aliases stay with Fastify: their deprecation headers are set per request. The lane has JSON bytes only.
      if (format === 'json' && !successor && o.prepared && o.city && req.method === 'GET')
        lane.add(req.url, targetFor(o.city, req.routeOptions.url ?? req.url));
      if (format !== 'json') return sendDataFormat(req, reply, dt, o, format, etag);
      // The lane's answer, from the same prepared bytes in the same coding (http/send.ts); an answer
      // sent once (a MISS, a query) in the same way, so each coding has one ETag whatever the path.
      const body = envelopeBody(o);
      return sendPrepared(req, reply, lane.compression, o.prepared ?? { body: typeof body === 'string' ? Buffer.from(body) : body, etag });
    };
  }
}

/**
 * The concrete successor of an alias request: the canonical slug when the city resolves (tolerant
 * spellings included), else the requested segment percent-encoded.
 */
function successorPath(template: string, params: Record<string, string>): string {
  const raw = params.city;
  const city = raw === undefined ? null : findCity(raw);
  const slug = city?.slug ?? raw;
  return fillTemplate(template, slug === undefined ? params : { ...params, city: slug });
}

/** A live path's city parameter: the canonical slugs it covers, for the OpenAPI enum (null: any city of the register). */
function livePathCities(dt: DataType): Record<string, readonly string[]> | undefined {
  const live = routePath(dt).startsWith('/api/v1/live/{city}/');
  const cities = coveredCities(dt);
  return live && cities ? { city: [...cities].sort() } : undefined;
}

/** `air-uba` -> `AirUbaData`: the components.schemas name of a data type's `data`. */
/** The GeoJSON answer of a data type: its rows and the members beside them typed by its record. */
function dataFeatures(dt: DataType): Record<string, unknown> {
  return typedFeatures(jsonSchemaOf(rowSchemaOf(dt)));
}

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
