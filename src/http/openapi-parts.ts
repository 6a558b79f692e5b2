import { PROBLEM_CODES, problemBody, type ProblemCode } from '../core/problem.ts';
import { jsonSchemaOf } from '../core/schema.ts';
import { Attribution, Pagination } from '../core/envelope-schema.ts';

/**
 * The parts of the OpenAPI document that many operations share: problem responses, paging
 * parameters, the envelope's meta and attribution. Operations `$ref` them; a part is published
 * only when an operation uses it (no unused components).
 */

type Json = Record<string, unknown>;

/** The problem a status stands for on a route (examples must show the code that status really carries). */
export function problemCodeFor(status: number, template: string): ProblemCode {
  if (status === 400) return 'invalid_request';
  if (status === 422) return 'invalid_parameter';
  if (status === 404) return /\{(slug|city)\}/.test(template) ? 'city_not_found' : 'route_not_found';
  if (status === 503) return template === '/api/v1/health' ? 'not_ready' : template.endsWith('/history') ? 'history_store_unavailable' : 'upstream_unavailable';
  if (status === 429) return 'rate_limited';
  if (status === 406) return 'not_acceptable';
  return 'internal_error';
}

/** What the shared response of a code says; an operation only adds its own description where it differs. */
const PROBLEM_DESCRIPTION: Partial<Record<ProblemCode, string>> = {
  city_not_found: 'Unknown city (did-you-mean hint)',
  route_not_found: 'Not found',
  invalid_parameter: 'Invalid parameter or paging value (page, limit, offset)',
  upstream_unavailable: 'Upstream down and nothing cached (hint: GET /api/v1/health)',
  history_store_unavailable: 'The history store (PostgreSQL or SQLite) does not answer; the problem names which (hint: GET /api/v1/health)',
  not_acceptable: 'The format asked for (format or Accept) is not offered here; the problem lists those that are',
};

const PROBLEM_EXAMPLE: Record<ProblemCode, [detail: string, hint: string, instance: string]> = {
  invalid_request: ['unknown sort field', 'sort must be one of: source, enabled, license.', '/api/v1/sources'],
  city_not_found: ['Unknown city "koln-x".', 'Did you mean "koeln"? GET /api/v1/cities lists all canonical slugs.', '/api/v1/cities/koln-x/weather'],
  route_not_found: [
    'no route GET /api/v1/nope',
    'GET /api/v1/openapi.yaml lists every route; per-city data lives under /api/v1/cities/{city}/<type>.',
    '/api/v1/nope',
  ],
  invalid_parameter: ['limit must be >= 1', 'limit must be an integer >= 1 (values above 200 are clamped to 200) or "all".', '/api/v1/cities'],
  upstream_unavailable: [
    'the upstream did not answer and nothing is cached',
    'Retry later; GET /api/v1/health shows open breakers.',
    '/api/v1/cities/koeln/weather',
  ],
  history_store_unavailable: [
    'the history store (PostgreSQL (DATABASE_URL)) is not reachable',
    'Retry later; the recorder keeps new points until it answers. GET /api/v1/health shows the state of the history store.',
    '/api/v1/cities/berlin/weather/history',
  ],
  not_ready: ['the service is starting or shutting down', 'Retry in a few seconds.', '/api/v1/health'],
  internal_error: [
    'an unexpected error occurred; it has been logged',
    'Retry later; if it persists, report it with the time of the request.',
    '/api/v1/cities',
  ],
  rate_limited: [
    'this client sent more requests than the per-client limit allows in the current window',
    'Wait for the time in Retry-After; RateLimit and RateLimit-Policy headers show the budget.',
    '/api/v1/cities',
  ],
  request_timeout: ['the request was not received in time', 'Send the whole request promptly.', '/api/v1/cities'],
  payload_too_large: ['the request body is too large', 'GET routes take no body; POST /mcp takes at most 1 MiB.', '/mcp'],
  uri_too_long: ['the request URI or one of its path segments is too long', 'City slugs are at most 200 characters; URIs at most 2048.', '/api/v1/cities'],
  unsupported_media_type: ['the request body has an unsupported content type', 'POST /mcp takes application/json.', '/mcp'],
  header_fields_too_large: ['the request headers are too large', 'Send at most 16 KiB of headers.', '/api/v1/cities'],
  not_acceptable: [
    'this route has no geojson form',
    'This route answers in: json (application/json), csv (text/csv). Ask with ?format= or the Accept header.',
    '/api/v1/cities/koeln/weather?format=geojson',
  ],
  method_not_allowed: ['/mcp takes no GET: this MCP server is stateless', 'Send JSON-RPC messages with POST /mcp.', '/mcp'],
};

const pascal = (code: string) => code.replace(/(^|_)(\w)/g, (_, _u: string, c: string) => c.toUpperCase());

const PAGE_PARAMS: Record<string, (defaultLimit: string) => Json> = {
  Page: () => ({
    name: 'page',
    in: 'query',
    required: false,
    description: 'Page number (>= 1, default 1)',
    schema: { type: 'integer', minimum: 1, default: 1 },
  }),
  Offset: () => ({
    name: 'offset',
    in: 'query',
    required: false,
    description: 'Items to skip (>= 0, default 0); overrides page',
    schema: { type: 'integer', minimum: 0, default: 0 },
  }),
  All: () => ({
    name: 'all',
    in: 'query',
    required: false,
    description: '`1` forces the full list on every channel',
    schema: { type: 'string', enum: ['1', 'true'] },
  }),
};

const limitParam = (defaultLimit: string): Json => ({
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
});

/** Collects the shared parts the operations use, and publishes exactly those. */
export class SharedParts {
  private readonly responses = new Map<string, Json>();
  private readonly parameters = new Map<string, Json>();

  /** A problem response: `$ref` to the shared one of its code, with this route's own description. */
  problem(status: number, template: string, description: string): Json {
    const code = problemCodeFor(status, template);
    const name = pascal(code);
    if (!this.responses.has(name)) {
      const [detail, hint, instance] = PROBLEM_EXAMPLE[code];
      this.responses.set(name, {
        description: PROBLEM_DESCRIPTION[code] ?? `${PROBLEM_CODES[code].title} (${code})`,
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: problemBody(code, detail, hint, instance) } },
      });
    }
    const ref: Json = { $ref: `#/components/responses/${name}` };
    if (description !== this.responses.get(name)!.description) ref.description = description;
    return ref;
  }

  /** The paging parameters: `meta` lists page by default (50), `list` data types answer in full on direct REST. */
  paging(kind: 'meta' | 'list'): Json[] {
    const limit = kind === 'meta' ? 'PageLimit' : 'ListLimit';
    if (!this.parameters.has(limit))
      this.parameters.set(
        limit,
        limitParam(kind === 'meta' ? 'Default 50.' : 'Default: the full list on direct REST; 25 on the GPT-actions and MCP channels.'),
      );
    for (const [name, make] of Object.entries(PAGE_PARAMS)) if (!this.parameters.has(name)) this.parameters.set(name, make(''));
    return ['Page', limit, 'Offset', 'All'].map((n) => ({ $ref: `#/components/parameters/${n}` }));
  }

  /** A parameter published once under components.parameters[name] (made on first use) and referenced. */
  parameter(name: string, make: () => Json): Json {
    if (!this.parameters.has(name)) this.parameters.set(name, make());
    return { $ref: `#/components/parameters/${name}` };
  }

  ifNoneMatch(): Json {
    this.parameters.set('IfNoneMatch', {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'ETag of a previous answer; a match gives 304 without body',
      schema: { type: 'string' },
    });
    return { $ref: '#/components/parameters/IfNoneMatch' };
  }

  components(): { responses: Json; parameters: Json } {
    const sorted = (m: Map<string, Json>) => Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));
    return { responses: sorted(this.responses), parameters: sorted(this.parameters) };
  }
}

/** The schemas every data-type answer refers to: its meta, its attribution, a problem document. */
export function envelopeSchemas(): Record<string, Json> {
  return {
    Envelope: {
      type: 'object',
      description: 'Every answer of a data type: `data` (typed per data type), `meta` and `attribution`.',
      required: ['meta', 'attribution'],
      properties: { meta: { $ref: '#/components/schemas/Meta' }, attribution: { $ref: '#/components/schemas/Attribution' } },
    },
    Meta: {
      type: 'object',
      description: 'About the answer: its outcome, source, freshness and paging; sources add fields of their own.',
      required: ['source_status'],
      properties: {
        source_status: {
          type: 'string',
          enum: ['ok', 'no_data', 'disabled', 'not_covered'],
          description:
            'ok: data holds the answer; no_data: the source has nothing for it; disabled: source off or credentials missing; not_covered: not available in this city',
        },
        type: { type: 'string', description: 'The data type' },
        city: { type: 'string', description: 'Canonical slug of the city answered for' },
        source: { type: 'string', description: 'Id of the answering source' },
        license: { type: 'string' },
        tier: { type: 'string', enum: ['A', 'B', 'C'] },
        fetched_at: { type: 'string', format: 'date-time', description: 'When the upstream was read' },
        cache_status: { type: 'string', enum: ['HIT', 'MISS', 'STALE', 'STALE-ON-ERROR'] },
        as_of: { type: 'string', description: 'Time the data describes, as the source states it' },
        refresh_seconds: { type: 'integer', description: 'Live data: how often it changes' },
        covered_cities: { type: 'array', items: { type: 'string' }, description: 'not_covered: the cities that have it' },
        disabled_reason: { type: 'string' },
        answered_by: { type: 'string', description: 'The keyless fallback source answering in place of the main one' },
        pagination: { $ref: '#/components/schemas/Pagination' },
        demo: { type: 'boolean', const: true, description: 'Present on the offline demo' },
      },
      additionalProperties: true,
    },
    Attribution: jsonSchemaOf(Attribution().nullable().meta({ description: 'Source, licence and attribution of the answer; null where it carries no data' })),
    Pagination: jsonSchemaOf(Pagination()),
    Problem: {
      type: 'object',
      description: 'RFC 9457 problem document; GET /api/v1/problems lists the codes',
      required: ['type', 'title', 'status', 'code', 'hint'],
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        instance: { type: 'string' },
        code: { type: 'string', enum: Object.keys(PROBLEM_CODES) },
        hint: { type: 'string', description: 'What to do instead' },
      },
    },
  };
}
