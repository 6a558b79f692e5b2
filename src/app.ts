import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { corsHeaderList, withCors } from './http/cors.ts';
import { createHttpServer, type HttpServer, type ServerLimits } from './http/node-server.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { parseQuery, registerRequestGuard } from './http/request-guard.ts';
import { ClientLimiter } from './http/rate-limit.ts';
import { HitLane } from './http/hit-lane.ts';
import { proxyTrust } from './http/client-address.ts';
import { CompressionPolicy } from './http/encodings.ts';
import { registerCompression } from './http/compression.ts';
import { partialCredentialsWarning, type Config } from './core/config.ts';
import { CATALOG, type Catalog } from './catalog/index.ts';
import { Metrics } from './metrics.ts';
import { Breakers, configuredHosts } from './pipeline/breakers.ts';
import { Cache } from './pipeline/cache.ts';
import { Pipeline } from './pipeline/run.ts';
import { Runtime } from './pipeline/runtime.ts';
import { SourceHealth } from './pipeline/source-health.ts';
import { createStore } from './store/index.ts';
import type { Store } from './core/store.ts';
import { UpstreamClient } from './upstream/client.ts';
import { frameworkErrorHandler, registerErrorHandling } from './http/errors.ts';
import { registerRoutes } from './routes/index.ts';
import { registerMcp } from './mcp/http-route.ts';
import type { RouteDoc } from './http/route-doc.ts';
import { isFormatDrift } from './core/format-drift-error.ts';
import { createRecorder, historyJobs, type Recorder } from './history/index.ts';
import type { ScheduledJob } from './core/job.ts';

export interface App {
  app: FastifyInstance;
  rt: Runtime;
  pipeline: Pipeline;
  /** Routes with their docs, in registration order: the OpenAPI document's only input. */
  routes: { method: string; url: string; doc: RouteDoc }[];
  /** Serves repeat cache HITs in front of Fastify (the data routes fill it). */
  lane: HitLane;
  ready: { value: boolean };
  /** The per-client rate limit (null when RATE_LIMIT_ENABLED=false). */
  limiter: ClientLimiter | null;
  /** The history recorder and its store (null when HISTORY_ENABLED=false). */
  history: Recorder | null;
  /** The jobs that keep recordable types coming for the cities with a recording (started with the catalog's jobs). */
  historyJobs: ScheduledJob[];
  close(): Promise<void>;
}

/** The listeners' timeouts and connection cap (main and local ingress alike). */
export function serverLimits(config: Config): ServerLimits {
  return {
    requestTimeoutMs: config.serverRequestTimeoutMs,
    headersTimeoutMs: config.serverHeadersTimeoutMs,
    keepAliveTimeoutMs: config.serverKeepAliveTimeoutMs,
    maxConnections: config.serverMaxConnections,
  };
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
  // One trust function for Fastify's request.ip and the HIT lane: both count a client under one key.
  const trust = proxyTrust(config.trustProxy);
  const compression = new CompressionPolicy(config.compressEnabled, config.compressThresholdBytes);
  const lane = new HitLane({ cors: corsHeaderList(config.corsOrigin), trust, compression }, config.hitLaneMemoryMb * 1024 * 1024);
  const app = Fastify({
    logger:
      opts.logger === false ? false : { level: config.logLevel, redact: ['req.headers.authorization'], ...(opts.logStream ? { stream: opts.logStream } : {}) },
    // Per-request logs would dominate the cost of a cache HIT; metrics count requests instead.
    logController: new LogController({ disableRequestLogging: true }),
    // A child logger per request costs more than the rest of a cache HIT; errors log on the app logger.
    childLoggerFactory: (logger) => logger,
    trustProxy: trust,
    // Node's server parses every request; the HIT lane then answers prepared cache HITs before
    // Fastify's router (http/hit-lane.ts) with the same CORS and nosniff headers, under the same
    // server limits and per-client rate limit.
    serverFactory: (handler) => {
      const fastify = withCors(handler, config.corsOrigin);
      return createHttpServer((req, res) => {
        if (!lane.handle(req, res)) fastify(req, res);
      }, serverLimits(config));
    },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200, querystringParser: parseQuery },
  });
  const metrics = new Metrics();
  const store =
    opts.store ??
    (await createStore(config, () =>
      // The error's text names Redis' address: only which store failed is logged, once per outage (ResilientStore).
      app.log.warn({ store: 'redis' }, 'cache store Redis (REDIS_URL) unreachable; serving from the in-process fallback until it answers'),
    ));
  if (store.ready && !(await store.ready(3000)))
    app.log.warn(
      { store: store.kind },
      `cache store ${store.kind === 'redis' ? 'Redis (REDIS_URL)' : store.kind} not reachable at start; serving from the in-process fallback until it answers`,
    );
  const health = new SourceHealth();
  const breakers = new Breakers(store, store.kind === 'redis', metrics, health, (s) => configuredHosts(config.sources[s.id]));
  const upstream = new UpstreamClient({
    userAgent: config.userAgent,
    connectTimeoutMs: config.upstreamConnectTimeoutMs,
    timeoutMs: config.upstreamTimeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    inflightMaxBytes: config.upstreamInflightMaxBytes,
  });
  const catalog = opts.catalog ?? CATALOG;
  const rt = new Runtime(config, store, metrics, breakers, health, upstream, catalog, app.log);
  const cache = new Cache({
    store,
    distributedLocks: store.kind === 'redis',
    requestBudgetMs: config.requestBudgetMs,
    memoryBytes: config.cacheMemoryMb * 1024 * 1024,
    // Format drift has its own hourly log line per source (pipeline/format-drift.ts).
    onBackgroundError: (key, err) => (isFormatDrift(err) ? undefined : app.log.warn({ key, err: String(err) }, 'background refresh failed')),
    onChange: () => health.changes.note(),
  });
  const pipeline = new Pipeline(rt, cache);
  const history = await createRecorder(config, store, app.log);
  rt.history = history;
  if (history) metrics.historyStats = () => ({ buffered: history.buffered, dropped: history.dropped });
  const recordJobs = history
    ? historyJobs(catalog.all, history.store, async (dt, city) => {
        await pipeline.run(dt, city, {}, { noPaging: true });
      })
    : [];
  const partial = partialCredentialsWarning(config);
  if (partial) app.log.warn(partial);
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
  const limiter = config.rateLimitEnabled
    ? await ClientLimiter.create({
        max: config.rateLimitMax,
        windowS: config.rateLimitWindowS,
        redisUrl: config.redisUrl,
        redisKeyPrefix: config.redisKeyPrefix,
      })
    : null;
  if (limiter && !(await limiter.ready(3000))) app.log.warn('rate-limit store (Redis) not reachable at start; counting per instance until it answers');
  registerRequestGuard(app, limiter);
  lane.admitWith(limiter);
  await registerCompression(app, compression);
  await registerRoutes(app, { rt, pipeline, routes, lane, ready, limiter, history });
  registerMcp(app, { rt, pipeline, limiter, history });
  await app.ready();
  ready.value = true;

  let closing: Promise<void> | undefined;
  return {
    app,
    rt,
    pipeline,
    routes,
    lane,
    ready,
    limiter,
    history,
    historyJobs: recordJobs,
    /** Idempotent: a second call waits for the first. */
    close() {
      closing ??= (async () => {
        ready.value = false;
        (app.server as HttpServer).startDraining(config.shutdownGraceMs);
        await app.close();
        await limiter?.close();
        await upstream.close();
        await history?.close();
        await history?.store.close();
        await store.close();
      })();
      return closing;
    },
  };
}
