import type { Config } from '../config.ts';
import { paramJsonSchema } from '../core/params.ts';
import type { RouteDoc } from './route-doc.ts';
import { PROBLEM_CODES, problemBody, type ProblemCode } from '../core/problem.ts';
import { GROUP_LABELS } from '../core/data-type.ts';
import { DEPRECATED_ALIASES } from '../core/normalise.ts';
import EXAMPLES from './openapi-examples.json' with { type: 'json' };
import { VERSION } from '../core/version.ts';

/** Example answers per data type, produced from fixtures by `npm run openapi-examples` (never hand-written). */
const EXAMPLE_ANSWERS: Readonly<Record<string, unknown>> = EXAMPLES;

type Route = { method: string; url: string; doc: RouteDoc };

const PAGE_PARAMS = (defaultLimit: string) => [
  { name: 'page', in: 'query', required: false, description: 'Page number (>= 1, default 1)', schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Page size (>= 1; above 200 clamped to 200; \`all\` forces the full list). ${defaultLimit}`,
    schema: {
      oneOf: [
        { type: 'integer', minimum: 1 },
        { type: 'string', enum: ['all'] },
      ],
    },
  },
  {
    name: 'offset',
    in: 'query',
    required: false,
    description: 'Items to skip (>= 0, default 0); overrides page',
    schema: { type: 'integer', minimum: 0, default: 0 },
  },
  { name: 'all', in: 'query', required: false, description: '`1` forces the full list on every channel', schema: { type: 'string', enum: ['1', 'true'] } },
];

/** A 200 body: the envelope, with `data` typed by the data type's schema and its example answer. */
function successContent(doc: RouteDoc, dataSchemas: Record<string, Record<string, unknown>>): Record<string, unknown> {
  if (doc.contentType) return { schema: { type: 'string' } };
  if (!doc.data) return { schema: { $ref: '#/components/schemas/Envelope' } };
  dataSchemas[doc.data.name] = doc.data.schema();
  const content: Record<string, unknown> = {
    schema: {
      allOf: [
        { $ref: '#/components/schemas/Envelope' },
        {
          type: 'object',
          properties: {
            data: { anyOf: [{ $ref: `#/components/schemas/${doc.data.name}` }, { type: 'null' }], description: 'null unless source_status is ok' },
          },
        },
      ],
    },
  };
  const example = doc.exampleKey && Object.prototype.hasOwnProperty.call(EXAMPLE_ANSWERS, doc.exampleKey) ? EXAMPLE_ANSWERS[doc.exampleKey] : undefined;
  if (example !== undefined) content.example = example;
  return content;
}

/** The problem a status stands for on a route (examples must show the code that status really carries). */
function problemCodeFor(status: number, template: string): ProblemCode {
  if (status === 400) return 'invalid_request';
  if (status === 422) return 'invalid_parameter';
  if (status === 404) return /\{(slug|city)\}/.test(template) ? 'city_not_found' : 'route_not_found';
  if (status === 503) return template === '/api/v1/health' ? 'not_ready' : 'upstream_unavailable';
  if (status === 429) return 'rate_limited';
  return 'internal_error';
}

const PROBLEM_EXAMPLE_TEXT: Record<ProblemCode, [detail: string, hint: string]> = {
  invalid_request: ['unknown sort field "colour"', 'sort must be one of: source, enabled, license.'],
  city_not_found: ['Unknown city "koln-x".', 'Did you mean "koeln"? GET /api/v1/cities lists all canonical slugs.'],
  route_not_found: ['no route GET /api/v1/nope', 'GET /api/v1/openapi.yaml lists every route; per-city data lives under /api/v1/cities/{slug}/<type>.'],
  invalid_parameter: ['limit must be >= 1, got 0', 'limit must be an integer >= 1 (values above 200 are clamped to 200) or "all".'],
  upstream_unavailable: ['the upstream did not answer and nothing is cached', 'Retry later; GET /api/v1/health shows open breakers.'],
  not_ready: ['the service is starting or shutting down', 'Retry in a few seconds.'],
  internal_error: ['an unexpected error occurred; it has been logged', 'Retry later; if it persists, report it with the time of the request.'],
  rate_limited: [
    'this client sent more requests than the per-client limit allows in the current window',
    'Wait for the time in Retry-After; RateLimit and RateLimit-Policy headers show the budget.',
  ],
  request_timeout: ['the request was not received in time', 'Send the whole request promptly.'],
  payload_too_large: ['the request body is too large', 'GET routes take no body; POST /mcp takes at most 1 MiB.'],
  uri_too_long: ['the request URI or one of its path segments is too long', 'City slugs are at most 200 characters; URIs at most 2048.'],
  unsupported_media_type: ['the request body has an unsupported content type', 'POST /mcp takes application/json.'],
  header_fields_too_large: ['the request headers are too large', 'Send at most 16 KiB of headers.'],
  method_not_allowed: ['/mcp takes no GET: this MCP server is stateless', 'Send JSON-RPC messages with POST /mcp.'],
};

function problemResponse(description: string, status: number, template: string) {
  const code = problemCodeFor(status, template);
  const [detail, hint] = PROBLEM_EXAMPLE_TEXT[code];
  return {
    description,
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: problemBody(code, detail, hint, template) } },
  };
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
 * OpenAPI 3.1 built from the routes Fastify actually registered: it cannot list a path that does
 * not exist. `origin` is where the document was requested from, so "Try it out" calls this instance.
 */
export function buildOpenApi(routes: Route[], config: Config, origin = '/') {
  const paths: Record<string, Record<string, unknown>> = {};
  const dataSchemas: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.doc.hidden || !r.url.startsWith('/api/v1')) continue;
    const template = r.url.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...template.matchAll(/\{(\w+)\}/g)].flatMap((m) => (m[1] ? [m[1]] : []));
    const parameters: unknown[] = pathParams.map((name) => ({
      name,
      in: 'path',
      required: true,
      description:
        name === 'slug' || name === 'city'
          ? 'City slug; tolerant (any case, umlauts or transliteration, English exonyms). GET /api/v1/cities lists the canonical ones.'
          : `${name}`,
      schema: { type: 'string' },
      ...(r.doc.exampleValues?.[name] !== undefined ? { example: r.doc.exampleValues[name] } : name === 'slug' || name === 'city' ? { example: 'koeln' } : {}),
    }));
    for (const p of r.doc.params ?? []) {
      if (pathParams.includes(p.name)) continue;
      const schema = paramJsonSchema(p, r.doc.exampleValues?.[p.name]);
      parameters.push({
        name: p.name,
        in: 'query',
        required: p.required === true,
        description: p.description,
        schema,
        ...(schema.examples ? { example: (schema.examples as unknown[])[0] } : {}),
      });
    }
    if (r.doc.paginated)
      parameters.push(
        ...PAGE_PARAMS(r.doc.paginated === 'meta' ? 'Default 50.' : 'Default: the full list on direct REST; 25 on the GPT-actions and MCP channels.'),
      );
    if (r.doc.conditional)
      parameters.push({
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'ETag of a previous answer; a match gives 304 without body',
        schema: { type: 'string' },
      });
    const responses: Record<string, unknown> = {};
    for (const [code, description] of Object.entries(r.doc.responses ?? { 200: 'OK' })) {
      responses[code] =
        Number(code) >= 400
          ? problemResponse(description, Number(code), template)
          : code === '304'
            ? { description }
            : {
                description,
                content: { [r.doc.contentType ?? 'application/json']: successContent(r.doc, dataSchemas) },
              };
    }
    if (!responses['404']) responses['404'] = problemResponse('Not found', 404, template);
    const op: Record<string, unknown> = {
      summary: r.doc.summary,
      ...(r.doc.description ? { description: r.doc.description } : {}),
      tags: r.doc.tags,
      ...(r.doc.operationId ? { operationId: r.doc.operationId } : {}),
      parameters,
      responses,
    };
    if (r.doc.deprecated) {
      op.deprecated = true;
      op.description = `Deprecated alias; successor: ${r.doc.successor}. Same envelope, with Deprecation and Link headers.`;
    }
    (paths[template] ??= {})[r.method.toLowerCase()] = op;
  }
  const servers = [{ url: origin, description: 'This instance (the address this document was requested from)' }];
  if (config.publicBaseUrl && config.publicBaseUrl !== origin) servers.unshift({ url: config.publicBaseUrl, description: 'Public address (PUBLIC_BASE_URL)' });
  if (config.localBaseUrl && config.localBaseUrl !== origin) servers.push({ url: config.localBaseUrl, description: 'Local ingress (same paths)' });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Stadtdaten: open data of the 84 largest German cities',
      version: VERSION,
      description:
        'Keyless, read-only proxy with one envelope {data, meta, attribution} and honest source_status. Tiers: A open licences, B share-alike (e.g. ODbL), C other terms. ' +
        'Cities are addressed by slug, e.g. `koeln` (GET /api/v1/cities lists all 84; any case, umlauts and exonyms are accepted).',
      license: { name: 'Data under the licence named in each response attribution' },
    },
    servers,
    tags: tagList(paths),
    paths,
    components: {
      schemas: {
        ...dataSchemas,
        Envelope: {
          type: 'object',
          required: ['data', 'meta'],
          properties: {
            data: { description: 'Record, list, or null (disabled source)' },
            meta: { $ref: '#/components/schemas/Meta' },
            attribution: {
              type: ['object', 'null'],
              properties: {
                source: { type: 'string' },
                text: { type: 'string' },
                license: { type: 'string' },
                license_url: { type: 'string' },
                tier: { type: 'string', enum: ['A', 'B', 'C'] },
                modified: { type: 'boolean' },
              },
            },
          },
        },
        Meta: {
          type: 'object',
          properties: {
            source_status: { type: 'string', enum: ['ok', 'no_data', 'disabled', 'not_covered', 'error', 'not_found'] },
            cache_status: { type: 'string', enum: ['HIT', 'MISS', 'STALE', 'STALE-ON-ERROR'] },
            covered_cities: { type: 'array', items: { type: 'string' } },
            pagination: { type: 'object' },
            as_of: { type: 'string', format: 'date-time' },
            refresh_seconds: { type: 'integer' },
          },
        },
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code', 'hint'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string' },
            code: { type: 'string', enum: Object.keys(PROBLEM_CODES) },
            hint: { type: 'string' },
          },
        },
        DeprecatedFieldNames: {
          description: 'Deprecated field names (2026-07-25) returned next to their canonical twins with identical values.',
          type: 'object',
          properties: Object.fromEntries(
            Object.entries(DEPRECATED_ALIASES).map(([old, canonical]) => [old, { deprecated: true, description: `Same value as ${canonical}` }]),
          ),
        },
      },
    },
  };
}
