import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { buildOpenApi } from '../http/openapi.ts';
import { requestOrigin } from '../http/origin.ts';
import { DEMO_BANNER } from '../http/html.ts';
import type { RouteContext } from './context.ts';

const require = createRequire(import.meta.url);

export function registerOpenApi(app: FastifyInstance, ctx: RouteContext) {
  // One rendering per origin the document is requested from (servers names it); a handful at most.
  const cached = new Map<string, { json: string; yaml: string }>();
  const doc = (req: FastifyRequest) => {
    const origin = requestOrigin(req);
    let d = cached.get(origin);
    if (!d) {
      const spec = buildOpenApi(ctx.routes, ctx.rt.config, origin);
      d = { json: JSON.stringify(spec), yaml: stringify(spec, { aliasDuplicateObjects: false }) };
      if (cached.size >= 16) cached.clear();
      cached.set(origin, d);
    }
    return d;
  };

  app.get(
    '/api/v1/openapi.yaml',
    {
      config: {
        doc: { summary: 'This API as OpenAPI 3.1 (YAML), generated from the registered routes', tags: ['Operational'], contentType: 'application/yaml' },
      },
    },
    async (req, reply) =>
      reply.headers({ 'content-type': 'application/yaml; charset=utf-8', 'cache-control': 'public, max-age=3600', vary: 'Host' }).send(doc(req).yaml),
  );

  app.get(
    '/api/v1/openapi.json',
    {
      config: { doc: { summary: 'This API as OpenAPI 3.1 (JSON)', tags: ['Operational'] } },
    },
    async (req, reply) =>
      reply.headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=3600', vary: 'Host' }).send(doc(req).json),
  );

  const uiDir = (() => {
    try {
      return require('swagger-ui-dist').getAbsoluteFSPath() as string;
    } catch {
      return null;
    }
  })();
  const assets: Record<string, string> = {
    'swagger-ui.css': 'text/css',
    'swagger-ui-bundle.js': 'application/javascript',
    'swagger-ui-standalone-preset.js': 'application/javascript',
    'favicon-32x32.png': 'image/png',
  };
  const assetCache = new Map<string, Buffer>();

  app.get('/docs', async (_req, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stadtdaten API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="icon" href="/docs/assets/favicon-32x32.png"></head>
<body>${ctx.rt.config.demo ? DEMO_BANNER : ''}<div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#ui', deepLinking: true });</script></body></html>`),
  );

  app.get('/docs/assets/:file', async (req, reply) => {
    const file = (req.params as { file: string }).file;
    const type = assets[file];
    if (!type || !uiDir) return reply.callNotFound();
    let buf = assetCache.get(file);
    if (!buf) {
      buf = readFileSync(join(uiDir, file));
      assetCache.set(file, buf);
    }
    return reply.header('content-type', type).header('cache-control', 'public, max-age=86400').send(buf);
  });
}
