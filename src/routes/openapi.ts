import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { buildOpenApi } from '../http/openapi.ts';
import { DEMO_BANNER, HTML_TYPE } from '../http/html.ts';
import { dataTypeReferenceHtml } from '../services/data-type-reference.ts';
import { lazy, z } from '../core/schema.ts';
import { parseParams, type ParamDecl } from '../core/params.ts';
import type { RouteContext } from './context.ts';

/** What /api/v1/openapi.json answers: the raw document, not an envelope (only its frame is described). */
const OpenApiDocument = lazy(() =>
  z
    .looseObject({
      openapi: z.string().meta({ description: 'OpenAPI version, 3.1.x' }),
      info: z.looseObject({ title: z.string(), version: z.string() }),
      servers: z.array(z.looseObject({ url: z.string() })),
      paths: z.record(z.string(), z.record(z.string(), z.unknown())).meta({ description: 'Operations per path template' }),
      components: z.record(z.string(), z.unknown()),
    })
    .meta({ description: 'An OpenAPI 3.1 document' }),
);

const require = createRequire(import.meta.url);

/** Swagger UI needs inline styles and data: images; scripts only from this origin. */
const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/**
 * How the document carries the data types' example answers: by URL (the default, which keeps it
 * small) or embedded, a self-contained document for tools that resolve every reference while
 * they run offline (openapi-typescript does) and for Swagger UI, which shows embedded examples.
 */
const EXAMPLES_PARAM: ParamDecl = {
  name: 'examples',
  type: 'string',
  enum: ['reference', 'inline'],
  default: 'reference',
  description:
    'reference (default): example answers by URL (externalValue), a compact document; inline: embedded, a self-contained document for generators that run offline',
};

export function registerOpenApi(app: FastifyInstance, ctx: RouteContext) {
  // The example answers, loaded on the first ask: a process that is never asked does not hold them.
  let examplesLoaded: Promise<Record<string, unknown>> | undefined;
  const examples = () =>
    (examplesLoaded ??= import('../http/openapi-examples.json', { with: { type: 'json' } }).then((x) => x.default as Record<string, unknown>));

  // One rendering per form for the whole process, kept as its bytes only (the document objects, tens
  // of MB for the inline form, are dropped once serialised). Nothing in a request picks or adds one.
  const rendered = new Map<string, Promise<{ json: Buffer; yaml: Buffer }>>();
  const render = async (form: string) => {
    const spec = buildOpenApi(ctx.routes, ctx.rt.config, form === 'inline' ? await examples() : undefined);
    return { json: Buffer.from(JSON.stringify(spec)), yaml: Buffer.from(stringify(spec, { aliasDuplicateObjects: false })) };
  };
  const doc = (req: FastifyRequest) => {
    const { examples: form } = parseParams([EXAMPLES_PARAM], req.query as Record<string, unknown>);
    const key = form === 'inline' ? 'inline' : 'reference';
    let d = rendered.get(key);
    if (!d) {
      d = render(key);
      rendered.set(key, d);
      // A failed build is tried again by the next request instead of answering its error for good.
      d.catch(() => rendered.delete(key));
    }
    return d;
  };

  app.get(
    '/api/v1/openapi.yaml',
    {
      config: {
        doc: {
          operationId: 'openapi_yaml',
          summary: 'This API as OpenAPI 3.1 (YAML), generated from the registered routes',
          description:
            'The same document as /api/v1/openapi.json, as YAML. Its servers are PUBLIC_BASE_URL (and LOCAL_BASE_URL) when set, else the relative `/`.',
          tags: ['Operational'],
          contentType: 'application/yaml',
          params: [EXAMPLES_PARAM],
          responses: { 200: 'OK', 422: 'invalid_parameter: examples is neither reference nor inline' },
        },
      },
    },
    async (req, reply) =>
      reply.headers({ 'content-type': 'application/yaml; charset=utf-8', 'cache-control': 'public, max-age=3600' }).send((await doc(req)).yaml),
  );

  app.get(
    '/api/v1/openapi.json',
    {
      config: {
        doc: {
          operationId: 'openapi_json',
          summary: 'This API as OpenAPI 3.1 (JSON)',
          description:
            'This document: OpenAPI 3.1, generated from the routes the server registered, answered as the document itself (no envelope). Its servers are PUBLIC_BASE_URL (and LOCAL_BASE_URL) when set, else the relative `/`, which resolves to the address the document was fetched from, so generated clients and "Try it out" call this instance.',
          tags: ['Operational'],
          answer: { name: 'OpenApiDocument', schema: OpenApiDocument },
          params: [EXAMPLES_PARAM],
          responses: { 200: 'OK', 422: 'invalid_parameter: examples is neither reference nor inline' },
        },
      },
    },
    async (req, reply) =>
      reply.headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=3600' }).send((await doc(req)).json),
  );

  const uiDir = (() => {
    try {
      // The package's main module would execute the browser bundle in Node at start (bench/README.md, "Figures behind code comments").
      return (require('swagger-ui-dist/absolute-path.js') as () => string)();
    } catch {
      return null;
    }
  })();
  // A Map: a plain object would answer `__proto__`, `constructor` or `toString` from its prototype.
  const assets = new Map<string, string>([
    ['swagger-ui.css', 'text/css'],
    ['swagger-ui-bundle.js', 'application/javascript'],
    ['swagger-ui-standalone-preset.js', 'application/javascript'],
    ['favicon-32x32.png', 'image/png'],
  ]);
  const assetCache = new Map<string, Buffer>();

  // No inline script, so the CSP can forbid every script not served from here.
  app.get('/docs', async (_req, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stadtdaten API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="icon" href="/docs/assets/favicon-32x32.png"></head>
<body>${ctx.rt.config.demo ? DEMO_BANNER : ''}<div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/start.js"></script></body></html>`),
  );

  // validatorUrl null: no validator badge from a third party (the CSP would block it anyway).
  app.get('/docs/assets/start.js', async (_req, reply) =>
    reply
      .header('content-type', 'application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send("window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json?examples=inline', dom_id: '#ui', deepLinking: true, validatorUrl: null });\n"),
  );

  // The data-type reference the operations point to for their whole description.
  let reference: string | undefined;
  app.get('/docs/data-types', async (_req, reply) =>
    reply
      .header('content-type', HTML_TYPE)
      .header('content-security-policy', DOCS_CSP)
      .header('cache-control', 'public, max-age=3600')
      .send((reference ??= dataTypeReferenceHtml(ctx.rt.catalog, ctx.rt.config.demo))),
  );

  // The example answers the document refers to (externalValue), one JSON file per data type.
  app.get('/docs/examples/:file', async (req, reply) => {
    const m = /^([a-z0-9-]+)\.json$/.exec((req.params as { file: string }).file);
    const all = await examples();
    if (!m?.[1] || !Object.hasOwn(all, m[1])) return reply.callNotFound();
    return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=3600').send(JSON.stringify(all[m[1]]));
  });

  app.get('/docs/assets/:file', async (req, reply) => {
    const file = (req.params as { file: string }).file;
    const type = assets.get(file);
    if (!type || !uiDir) return reply.callNotFound();
    let buf = assetCache.get(file);
    if (!buf) {
      buf = readFileSync(join(uiDir, file));
      assetCache.set(file, buf);
    }
    return reply.header('content-type', type).header('cache-control', 'public, max-age=86400').send(buf);
  });
}
