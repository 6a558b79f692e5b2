import pino from 'pino';
import type { Config } from './core/config.ts';
import { Runtime } from './pipeline/runtime.ts';
import { buildCatalog } from './catalog/build.ts';
import { Breakers } from './pipeline/breakers.ts';
import { SourceHealth } from './pipeline/source-health.ts';
import { Metrics } from './metrics.ts';
import { UpstreamClient } from './upstream/client.ts';
import { UpstreamError } from './core/upstream-error.ts';
import { GTFS_DE } from './sources/gtfs/source.ts';
import { SqliteStore } from './store/sqlite.ts';
import { RedisStore } from './store/redis.ts';
import type { Store } from './core/store.ts';
import { pollGtfsRt } from './jobs/gtfs/rt-poll.ts';
import { downloadStaticIndex } from './jobs/gtfs/static-build.ts';
import type { ChildReply, ChildRequest } from './jobs/gtfs/child-protocol.ts';

/**
 * Process entry of GTFS work in its own process (jobs/gtfs/child-process.ts forks it with a capped
 * heap): the GTFS-RT poll, and the weekly static build in a second, short-lived one. It opens the
 * app's shared store itself; the poll child stays alive between polls, so what one poll carries
 * over to the next (routes and schedule times per trip) survives, while the app process never
 * holds the feed. It needs only the upstream client, the store and the GTFS source, not the
 * catalog or routes.
 */

let rt: Runtime | null = null;
let storeKey = '';

function runtimeFor(req: ChildRequest): Runtime {
  const config = { ...req.config, sourceList: [GTFS_DE] } as Config;
  const key = JSON.stringify([req.storePath, config.redisUrl, config.redisKeyPrefix]);
  if (rt && storeKey === key) return rt;
  void rt?.store.close();
  const store: Store = config.redisUrl
    ? new RedisStore(config.redisUrl, { keyPrefix: config.redisKeyPrefix })
    : new SqliteStore(req.storePath ?? config.storePath);
  const metrics = new Metrics();
  const upstream = new UpstreamClient({
    userAgent: config.userAgent,
    connectTimeoutMs: config.upstreamConnectTimeoutMs,
    timeoutMs: config.upstreamTimeoutMs,
    maxResponseBytes: config.maxResponseBytes,
  });
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const catalog = buildCatalog([]);
  rt = new Runtime(config, store, metrics, new Breakers(store, store.kind === 'redis', metrics), new SourceHealth(), upstream, catalog, log);
  storeKey = key;
  return rt;
}

/**
 * A full collection (the parent starts the child with --expose-gc): between polls, where idle
 * time is free, and once the feed buffer is released, so its ~70 MB are gone before the
 * departure boards are built.
 */
function collect() {
  (globalThis as { gc?: () => void }).gc?.();
}

async function handle(req: ChildRequest): Promise<ChildReply> {
  try {
    const rt = runtimeFor(req);
    if (req.task === 'static') return { id: req.id, ok: await downloadStaticIndex(rt) };
    const r = await pollGtfsRt(rt, { ttlMs: req.ttlMs, now: req.nowMs === undefined ? undefined : new Date(req.nowMs), feedReleased: collect });
    collect();
    return { id: req.id, ok: { ...r, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) } };
  } catch (err) {
    const e = err instanceof UpstreamError ? { kind: err.kind, status: err.status } : {};
    return { id: req.id, error: { message: err instanceof Error ? err.message : String(err), ...e } };
  }
}

// The app is the only reason to exist: gone parent, gone child.
process.on('disconnect', () => process.exit(0));
process.on('message', (req: ChildRequest) => {
  void handle(req).then((reply) => process.send?.(reply));
});
