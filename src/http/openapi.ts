import type { Config } from '../core/config.ts';
import { paramJsonSchema } from '../core/params.ts';
import { FEATURE, FEATURE_COLLECTION, formatContent, formatParameter, GEOMETRY } from './openapi-formats.ts';
import type { RouteDoc } from './route-doc.ts';
import { GROUP_LABELS } from '../core/data-type.ts';
import { jsonSchemaOf } from '../core/schema.ts';
import type { ParamDecl } from '../core/params.ts';
import { envelopeSchemas, SharedParts } from './openapi-parts.ts';
import { shareFieldGroups, shareParameters, shareRepeated, tidy } from './openapi-share.ts';
import { VERSION } from '../core/version.ts';

/**
 * Where a data type's example answer is served (routes/openapi.ts): the document refers to it
 * instead of embedding it. Absolute under PUBLIC_BASE_URL, so a copy of the document saved to a
 * file still resolves it; else relative to the document, like its server.
 */
export const exampleUrl = (base: string, key: string) => `${base.replace(/\/$/, '')}/docs/examples/${key}.json`;

type Route = { method: string; url: string; doc: RouteDoc };
type Json = Record<string, unknown>;

/** The Server-Sent Events form of a streaming data route's 200 (RouteDoc.stream), a component every such route refers to. */
const EVENT_STREAM_SCHEMA = {
  type: 'string',
  description:
    'Server-Sent Events, asked for with `Accept: text/event-stream` (what EventSource sends) or at the same path plus `/stream`. ' +
    'Each event: `id` (resume with Last-Event-ID) and `data` = the envelope as JSON on one line. The first event is the current ' +
    'envelope; later ones come only when the content changes (meta.fetched_at and as_of alone are no change). Event `reset`: the Last-Event-ID ' +
    'was older than the kept history; its data is the current envelope. `: hb` comment lines keep idle connections open.',
};
const EVENT_STREAM = { 'text/event-stream': { schema: { $ref: '#/components/schemas/EventStream' } } };

/** `WeatherData` -> `WeatherAnswer`: the component of a data type's whole 200 body. */
const answerName = (dataName: string) => `${dataName.replace(/Data$/, '')}Answer`;

/** The envelope of a data type: the shared Envelope (meta and attribution) with its typed `data` (null unless meta.source_status is ok). */
function dataAnswer(dataName: string): Json {
  return {
    allOf: [{ $ref: '#/components/schemas/Envelope' }],
    required: ['data'],
    properties: { data: { anyOf: [{ $ref: `#/components/schemas/${dataName}` }, { type: 'null' }] } },
  };
}

/**
 * A 200 body: the route's own answer schema, or the envelope with the data type's `data` and,
 * by reference, its example answer (an Example Object's externalValue). Embedded, the hundred
 * examples were a sixth of the document; aliases share the response and so the example.
 */
function successContent(doc: RouteDoc, schemas: Schemas, base: string, inline?: Readonly<Record<string, unknown>>): Json {
  if (doc.contentType) return { schema: { type: 'string' } };
  if (doc.answer) {
    if (claim(schemas, doc.answer.name, doc.answer.schema)) schemas.json[doc.answer.name] = jsonSchemaOf(doc.answer.schema());
    return { schema: { $ref: `#/components/schemas/${doc.answer.name}` } };
  }
  if (!doc.data) throw new Error(`${doc.operationId}: a JSON route documents its answer (doc.answer) or its data (doc.data)`);
  const name = answerName(doc.data.name);
  if (claim(schemas, doc.data.name, doc.data.schema) && claim(schemas, name, doc.data.schema)) {
    schemas.json[doc.data.name] = doc.data.schema();
    schemas.json[name] = dataAnswer(doc.data.name);
  }
  const key = doc.exampleKey;
  // Every data type has one (npm run openapi-examples; the contract test fetches each).
  // Named `demo`: the operation already says which data type it is; the example is the demo's answer.
  const example = !key ? {} : inline ? { examples: { demo: { value: inline[key] } } } : { examples: { demo: { externalValue: exampleUrl(base, key) } } };
  return { schema: { $ref: `#/components/schemas/${name}` }, ...example };
}

/** The component of a route's GeoJSON answer, made the first time (alike answers share the first one's); null: the generic FeatureCollection. */
function geojsonSchema(doc: RouteDoc, geo: GeoSchemas): string | null {
  if (!doc.features) return null;
  let name = geo.names.get(doc.features.schema);
  if (!name) {
    const json = doc.features.schema();
    const key = JSON.stringify(json);
    name = geo.byShape.get(key) ?? doc.features.name;
    if (!geo.byShape.has(key)) {
      if (geo.json[name]) throw new Error(`two GeoJSON schemas named ${name} in the OpenAPI document`);
      geo.byShape.set(key, name);
      geo.json[name] = json;
    }
    geo.names.set(doc.features.schema, name);
  }
  return name;
}

/** The GeoJSON answers' components, added after the data schemas (so shared parts are named after where the records are). */
type GeoSchemas = { json: Record<string, Json>; byShape: Map<string, string>; names: Map<unknown, string> };

/** A reference to the named response component, made from `response` the first time (the same name always carries the same response). */
function sharedResponse(components: Record<string, Json>, name: string, response: Json): Json {
  components[name] ??= response;
  return { $ref: `#/components/responses/${name}` };
}

/** The component schemas, each with the declaration it was made from (aliases share it; two declarations never share a name). */
type Schemas = { json: Record<string, Json>; owners: Map<string, unknown> };

/** True when `name` is new (the caller fills it in); false when `owner` made it already; throws when another declaration did. */
function claim(schemas: Schemas, name: string, owner: unknown): boolean {
  const had = schemas.owners.get(name);
  if (had === owner) return false;
  if (had !== undefined) throw new Error(`two schemas named ${name} in the OpenAPI document`);
  schemas.owners.set(name, owner);
  return true;
}

/**
 * A path parameter: the city of a per-city path (a shared component per spelling and example
 * city; inline with an enum where the path covers a fixed set of cities), or a declared one.
 */
function pathParameter(name: string, r: Route, shared: SharedParts): Json {
  const isCity = name === 'slug' || name === 'city';
  if (isCity && !r.doc.pathValues?.[name] && !r.doc.params?.some((p) => p.name === name)) {
    const example = r.doc.exampleValues?.[name] ?? 'koeln';
    const component = `${name === 'slug' ? 'Slug' : 'City'}${example.replace(/(^|-)(\w)/g, (_, _d: string, c: string) => c.toUpperCase())}`;
    return shared.parameter(component, () => cityParameter(name, r));
  }
  return cityParameter(name, r);
}

/** The city parameter of a per-city path (tolerant; an enum where the path covers a fixed set of cities). */
function cityParameter(name: string, r: Route): Json {
  const decl = r.doc.params?.find((p) => p.name === name);
  const values = r.doc.pathValues?.[name];
  const isCity = name === 'slug' || name === 'city';
  const schema: Json = decl ? publishedParam(decl, r.doc.exampleValues?.[name]) : { type: 'string' };
  delete schema.examples;
  if (values) schema.enum = [...values];
  const description = isCity
    ? values
      ? 'City slug: a city this path covers (any case, umlauts, exonyms; others answer not_covered)'
      : 'City slug (any case, umlauts, exonyms); GET /api/v1/cities lists them'
    : (decl?.description ?? name);
  const example = r.doc.exampleValues?.[name] ?? (isCity ? 'koeln' : undefined);
  return { name, in: 'path', required: true, description, schema, ...(example !== undefined ? { example } : {}) };
}

/**
 * A declared parameter as JSON Schema. A pattern with Unicode property escapes (\p{L}) is left
 * to the description: validators that compile patterns without the `u` flag read it otherwise.
 */
function publishedParam(p: ParamDecl, example?: string): Json {
  const schema = paramJsonSchema(p, example);
  // The parameter's own description says it; the schema keeps only what it adds (a clamp, a pattern hint).
  if (schema.description === p.description) delete schema.description;
  if (typeof schema.pattern === 'string' && /\\[pP]\{/.test(schema.pattern)) {
    delete schema.pattern;
    if (p.patternHint) schema.description = p.patternHint;
  }
  return schema;
}

/** Tags in the order the docs list them: the data topics first, then the operational ones. */
function tagList(paths: Record<string, Record<string, unknown>>): { name: string }[] {
  const used = new Set<string>();
  for (const ops of Object.values(paths)) for (const op of Object.values(ops)) for (const t of (op as { tags?: string[] }).tags ?? []) used.add(t);
  const order = [...Object.values(GROUP_LABELS), 'Cities', 'Compare'];
  const data = order.filter((t) => used.has(t));
  const rest = [...used].filter((t) => !order.includes(t)).sort((a, b) => (a === 'Operational' ? 1 : b === 'Operational' ? -1 : a.localeCompare(b)));
  return [...data, ...rest].map((name) => ({ name }));
}

/**
 * The document's servers: the configured addresses, else the relative `/` (a browser resolves it
 * against the page, a client against where it fetched the document). Never the request's Host: the
 * document is one per process, and a client's header must not choose what others are told.
 */
function serversOf(config: Config): { url: string; description: string }[] {
  const servers = [];
  if (config.publicBaseUrl) servers.push({ url: config.publicBaseUrl, description: 'Public address (PUBLIC_BASE_URL)' });
  if (config.localBaseUrl && config.localBaseUrl !== config.publicBaseUrl)
    servers.push({ url: config.localBaseUrl, description: 'Local ingress (same paths, LOCAL_BASE_URL)' });
  if (servers.length === 0) servers.push({ url: '/', description: 'This instance (relative to the address the document was fetched from)' });
  return servers;
}

/**
 * OpenAPI 3.1 built from the routes Fastify actually registered: it cannot list a path that does
 * not exist. Its servers come from the configuration (serversOf). The data types' example answers
 * are referred to by URL, or embedded when `inlineExamples` (the example answer per data type) is given.
 */
export function buildOpenApi(routes: Route[], config: Config, inlineExamples?: Readonly<Record<string, unknown>>) {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Schemas = { json: {}, owners: new Map() };
  const shared = new SharedParts();
  const dataResponses: Record<string, Json> = {};
  const geo: GeoSchemas = { json: {}, byShape: new Map(), names: new Map() };
  const published = routes.filter((r) => !r.doc.hidden && r.url.startsWith('/api/v1'));
  /** How many documented routes answer each data type (its path and its deprecated aliases). */
  const uses = new Map<unknown, number>();
  for (const r of published) if (r.doc.data) uses.set(r.doc.data, (uses.get(r.doc.data) ?? 0) + 1);
  // The address examples are served from: the public one when set, else relative to the document.
  const base = config.publicBaseUrl ?? '';
  for (const r of published) {
    const template = r.url.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...template.matchAll(/\{(\w+)\}/g)].flatMap((m) => (m[1] ? [m[1]] : []));
    const parameters: unknown[] = pathParams.map((name) => pathParameter(name, r, shared));
    for (const p of r.doc.params ?? []) {
      if (pathParams.includes(p.name)) continue;
      const schema = publishedParam(p, r.doc.exampleValues?.[p.name]);
      const example = (schema.examples as unknown[] | undefined)?.[0];
      delete schema.examples;
      parameters.push({
        name: p.name,
        in: 'query',
        // Optional is the default: only a required one says so.
        ...(p.required ? { required: true } : {}),
        description: p.description,
        schema,
        ...(example !== undefined ? { example } : {}),
      });
    }
    if (r.doc.paginated) parameters.push(...shared.paging(r.doc.paginated));
    if (r.doc.conditional) parameters.push(shared.ifNoneMatch());
    const formats = r.doc.formats?.() ?? null;
    if (formats) parameters.push(shared.parameter(...formatParameter(formats)));
    const features = formats?.includes('geojson') ? geojsonSchema(r.doc, geo) : null;
    const responses: Record<string, unknown> = {};
    for (const [code, description] of Object.entries(r.doc.responses ?? { 200: 'OK' })) {
      if (Number(code) >= 400) responses[code] = shared.problem(Number(code), template, description);
      else if (code === '304') responses[code] = { description };
      else {
        const ok = {
          description,
          content: {
            [r.doc.contentType ?? 'application/json']: successContent(r.doc, schemas, base, inlineExamples),
            ...(formats ? formatContent(formats, features ?? undefined) : {}),
            ...(r.doc.stream ? EVENT_STREAM : {}),
          },
        };
        // A data type's 200 with deprecated aliases is one component that its path and the aliases refer to.
        responses[code] = r.doc.data && (uses.get(r.doc.data) ?? 0) > 1 ? sharedResponse(dataResponses, answerName(r.doc.data.name), ok) : ok;
      }
    }
    if (r.doc.stream && claim(schemas, 'EventStream', EVENT_STREAM_SCHEMA)) schemas.json.EventStream = EVENT_STREAM_SCHEMA;
    if (formats) {
      responses['406'] ??= shared.problem(406, template, 'The format asked for (format or Accept) is not offered here; the problem lists those that are');
      if (formats.includes('geojson'))
        for (const [name, schema] of [
          ['FeatureCollection', FEATURE_COLLECTION],
          ['Feature', FEATURE],
          ['Geometry', GEOMETRY],
        ] as const)
          if (claim(schemas, name, schema)) schemas.json[name] = schema;
    }
    if (!responses['404']) responses['404'] = shared.problem(404, template, 'Not found');
    const op: Record<string, unknown> = {
      operationId: r.doc.operationId,
      summary: r.doc.summary,
      description: r.doc.description,
      tags: r.doc.tags,
      parameters,
      responses,
    };
    if (r.doc.deprecated) {
      op.deprecated = true;
      // The successor's operation has the summary of what it answers; the alias says where it went.
      op.summary = `Deprecated alias of ${r.doc.successor}`;
      op.description = 'Same envelope as its successor, with Deprecation and Link headers.';
    }
    (paths[template] ??= {})[r.method.toLowerCase()] = op;
  }
  for (const [name, s] of Object.entries(envelopeSchemas())) if (claim(schemas, name, envelopeSchemas)) schemas.json[name] = s;
  for (const [name, s] of Object.entries(geo.json)) if (claim(schemas, name, geo)) schemas.json[name] = s;
  const parts = shared.components();
  const parameters = shareParameters(paths as Record<string, Record<string, { parameters?: unknown[] }>>, parts.parameters);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Stadtdaten: open data of the 84 largest German cities',
      version: VERSION,
      description:
        'Keyless, read-only proxy with one envelope {data, meta, attribution} and honest source_status. Tiers: A open licences, B share-alike (e.g. ODbL), C other terms. ' +
        'Cities are addressed by slug, e.g. `koeln` (GET /api/v1/cities lists all 84; any case, umlauts and exonyms are accepted). ' +
        (inlineExamples
          ? "A data type's example answer is embedded (examples): "
          : "A data type's example answer is referred to by URL (externalValue, /docs/examples/<type>.json; ?examples=inline embeds them): ") +
        'an answer of the demo, made from recorded upstream data, its lists cut to one item. ' +
        'Each data type in full (how it is read, sources and licences per city, coverage, cache windows): /docs/data-types#<type>.',
      contact: { name: 'Stadtdaten maintainers', url: 'https://github.com/stadtdaten/stadtdaten' },
      license: { name: 'Data under the licence named in each response attribution' },
    },
    servers: serversOf(config),
    tags: tagList(paths),
    paths,
    components: {
      schemas: shareFieldGroups(shareRepeated(Object.fromEntries(Object.entries(schemas.json).map(([k, v]) => [k, tidy(v)])))),
      responses: { ...parts.responses, ...dataResponses },
      parameters,
    },
  };
}
