import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { createServer } from 'node:http';
import { withCors } from './http/cors.ts';
import { HitLane } from './http/hit-lane.ts';
import type { Config } from './config.ts';
import { CATALOG, type Catalog } from './catalog/index.ts';
import { Metrics } from './metrics.ts';
import { Breakers } from './pipeline/breakers.ts';
import { Cache } from './pipeline/cache.ts';
import { Pipeline } from './pipeline/run.ts';
import { Runtime } from './pipeline/runtime.ts';
import { SourceHealth } from './pipeline/source-health.ts';
import { createStore } from './store/index.ts';
import type { Store } from './store/types.ts';
import { UpstreamClient } from './upstream/client.ts';
import { registerErrorHandling } from './http/errors.ts';
import { registerRoutes } from './routes/index.ts';
import type { RouteDoc } from './http/route-doc.ts';

export interface App {
  app: FastifyInstance;
  rt: Runtime;
  pipeline: Pipeline;
  /** Routes with their docs, in registration order: the OpenAPI document's only input. */
  routes: { method: string; url: string; doc: RouteDoc }[];
  /** Serves repeat cache HITs in front of Fastify (the data routes fill it). */
  lane: HitLane;
  ready: { value: boolean };
  close(): Promise<void>;
}

export interface BuildOptions {
  store?: Store;
  catalog?: Catalog;
  logger?: boolean;
  /** Where logs go (default stdout); the MCP stdio entry needs stderr, stdout carries the protocol. */
  logStream?: NodeJS.WritableStream;
}

/** Everything but listen(): what the server, the tests and the MCP stdio entry use. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<App> {
  const lane = new HitLane();
  const app = Fastify({
    logger:
      opts.logger === false ? false : { level: config.logLevel, redact: ['req.headers.authorization'], ...(opts.logStream ? { stream: opts.logStream } : {}) },
    // Per-request logs would dominate the cost of a cache HIT; metrics count requests instead.
    logController: new LogController({ disableRequestLogging: true }),
    // A child logger per request costs more than the rest of a cache HIT; errors log on the app logger.
    childLoggerFactory: (logger) => logger,
    trustProxy: true,
    serverFactory: (handler) => {
      const fastify = withCors(handler);
      return createServer((req, res) => {
        if (!lane.handle(req, res)) fastify(req, res);
      });
    },
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  const metrics = new Metrics();
  const store =
    opts.store ?? (await createStore(config, (err) => app.log.warn({ err: String(err) }, 'store unreachable; serving from the in-process fallback')));
  if (store.ready && !(await store.ready(3000))) app.log.warn('shared store not reachable at start; serving with the in-process fallback until it answers');
  const breakers = new Breakers(store, store.kind === 'redis', metrics);
  const upstream = new UpstreamClient({
    userAgent: config.userAgent,
    connectTimeoutMs: config.upstreamConnectTimeoutMs,
    timeoutMs: config.upstreamTimeoutMs,
    maxResponseBytes: config.maxResponseBytes,
  });
  const catalog = opts.catalog ?? CATALOG;
  const rt = new Runtime(config, store, metrics, breakers, new SourceHealth(), upstream, catalog, app.log);
  const cache = new Cache({
    store,
    distributedLocks: store.kind === 'redis',
    requestBudgetMs: config.requestBudgetMs,
    onBackgroundError: (key, err) => app.log.warn({ key, err: String(err) }, 'background refresh failed'),
  });
  const pipeline = new Pipeline(rt, cache);
  for (const src of config.sourceList) metrics.sourceEnabled.set({ source: src.id }, rt.sourceEnabled(src) ? 1 : 0);

  const routes: App['routes'] = [];
  app.addHook('onRoute', (r) => {
    const doc = r.config?.doc;
    if (!doc) return;
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods) if (m !== 'HEAD') routes.push({ method: m, url: r.url, doc });
  });

  const ready = { value: false };
  registerErrorHandling(app, metrics);
  await registerRoutes(app, { rt, pipeline, routes, lane, ready });
  await app.ready();
  ready.value = true;

  return {
    app,
    rt,
    pipeline,
    routes,
    lane,
    ready,
    async close() {
      ready.value = false;
      await app.close();
      await upstream.close();
      await store.close();
    },
  };
}
