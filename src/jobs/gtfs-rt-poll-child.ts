import pino from 'pino';
import type { Config } from '../config.ts';
import { Runtime } from '../pipeline/runtime.ts';
import { Breakers } from '../pipeline/breakers.ts';
import { SourceHealth } from '../pipeline/source-health.ts';
import { Metrics } from '../metrics.ts';
import { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { SOURCES } from '../sources/index.ts';
import { SqliteStore } from '../store/sqlite.ts';
import { RedisStore } from '../store/redis.ts';
import type { Store } from '../store/types.ts';
import { pollGtfsRt } from './gtfs-rt-poller.ts';

/**
 * The GTFS-RT poll in its own process (gtfs-rt-poller.ts forks it with a capped heap): it
 * opens the app's shared store itself and stays alive between polls, so what one poll carries
 * over to the next (routes and schedule times per trip) survives, while the app process never
 * holds the feed. It only needs the upstream client and the store, not the catalog or routes.
 */
export interface PollRequest { id: number; config: Omit<Config, 'sourceList'>; storePath: string | null; ttlMs: number; nowMs?: number }
export type PollReply =
  | { id: number; ok: Awaited<ReturnType<typeof pollGtfsRt>> & { peak_rss_mb: number } }
  | { id: number; error: { message: string; kind?: UpstreamError['kind']; status?: number } };

let rt: Runtime | null = null;
let storeKey = '';

function runtimeFor(req: PollRequest): Runtime {
  const config = { ...req.config, sourceList: SOURCES } as Config;
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
  const catalog = { all: [], byType: new Map(), byCompareResource: new Map() };
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

async function handle(req: PollRequest): Promise<PollReply> {
  try {
    const r = await pollGtfsRt(runtimeFor(req), { ttlMs: req.ttlMs, now: req.nowMs === undefined ? undefined : new Date(req.nowMs), feedReleased: collect });
    collect();
    return { id: req.id, ok: { ...r, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) } };
  } catch (err) {
    const e = err instanceof UpstreamError ? { kind: err.kind, status: err.status } : {};
    return { id: req.id, error: { message: err instanceof Error ? err.message : String(err), ...e } };
  }
}

// The app is the only reason to exist: gone parent, gone child.
process.on('disconnect', () => process.exit(0));
process.on('message', (req: PollRequest) => {
  void handle(req).then((reply) => process.send?.(reply));
});
