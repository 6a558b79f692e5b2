import { limitEnv, type SourceDecl } from './source.ts';
import { VERSION } from './version.ts';

/**
 * Every setting is an environment variable, parsed and validated here and nowhere else.
 * `ENV_VARS` is the documented list (README and .env.example are checked against it by a test).
 */

export interface EnvVar {
  name: string;
  default: string;
  description: string;
}

type Parser<T> = (raw: string, name: string) => T;

class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const str: Parser<string> = (raw) => raw;
const int =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
    return n;
  };
const bool: Parser<boolean> = (raw, name) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
};
const url: Parser<string> = (raw, name) => {
  try {
    const u = new URL(raw);
    if (!['http:', 'https:', 'redis:', 'rediss:'].includes(u.protocol)) throw new Error();
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
};
/** A PostgreSQL connection URL (never echoed back: it may carry a password). */
const postgresUrl: Parser<string | null> = (raw, name) => {
  if (raw.trim() === '') return null;
  try {
    if (!['postgres:', 'postgresql:'].includes(new URL(raw).protocol)) throw new Error();
    return raw;
  } catch {
    throw new ConfigError(`${name} must be a postgres:// or postgresql:// URL`);
  }
};
const optionalUrl: Parser<string | null> = (raw, name) => (raw.trim() === '' ? null : url(raw, name));
/** A raster tile URL template (`{z}`, `{x}`, `{y}`), or null for none (an empty value). */
const tileTemplate: Parser<string | null> = (raw, name) => {
  if (raw.trim() === '') return null;
  const u = url(raw.replace(/[{}]/g, ''), name);
  if (!u.startsWith('https:') || !['{z}', '{x}', '{y}'].every((k) => raw.includes(k)))
    throw new ConfigError(`${name} must be an https tile URL template with {z}, {x} and {y}, or empty for no basemap`);
  return raw.trim();
};
const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw, name) => {
    if (!values.includes(raw as T)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
    return raw as T;
  };
const list: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Fastify's trustProxy: off, on (any proxy), a hop count, or the proxies' addresses/CIDRs. */
const trustProxy: Parser<boolean | number | string[]> = (raw, name) => {
  const v = raw.trim().toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) return true;
  if (/^\d+$/.test(v)) return Number(v);
  const ips = list(raw, name);
  if (ips.every((ip) => /^[0-9a-f.:]+(\/\d{1,3})?$/i.test(ip))) return ips;
  throw new ConfigError(`${name} must be false, true, a hop count or a comma list of proxy addresses, got "${raw}"`);
};

export const ENV_VARS: EnvVar[] = [];

function setting<T>(env: NodeJS.ProcessEnv, name: string, def: string, description: string, parse: Parser<T>): T {
  if (!ENV_VARS.some((v) => v.name === name)) ENV_VARS.push({ name, default: def, description });
  const raw = env[name];
  return parse(raw === undefined ? def : raw, name);
}

export interface SourceSettings {
  enabled: boolean;
  baseUrl: string;
  urls: Record<string, string>;
  credentials: Record<string, string>;
  missingCredentials: string[];
  /** The source's declared limits (SourceDecl.limits) by key, as configured. */
  limits: Record<string, number>;
}

/** Limits of the history's PostgreSQL pool (HISTORY_PG_*): the defaults, also of a store built without settings (bench/history.ts). */
export interface HistoryPgLimits {
  poolMax: number;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}
export const HISTORY_PG_DEFAULTS: HistoryPgLimits = { poolMax: 4, connectTimeoutMs: 3000, queryTimeoutMs: 15_000 };

/**
 * `sources` is the list of upstreams to read settings for: the registered ones (startup.ts)
 * or a test's own. It is a parameter so that this base module imports no source module.
 */
export function loadConfig(env: NodeJS.ProcessEnv, sources: readonly SourceDecl[]) {
  const s = <T>(name: string, def: string, description: string, parse: Parser<T>) => setting(env, name, def, description, parse);
  const config = {
    host: s('HOST', '127.0.0.1', 'Main listen address', str),
    port: s('PORT', '3000', 'Main listen port', int(0, 65535)),
    localHost: s('LOCAL_HOST', '', 'Optional second (local) ingress address; empty = off', str),
    localPort: s('LOCAL_PORT', '0', 'Port of the local ingress (0 = off)', int(0, 65535)),
    publicBaseUrl: s(
      'PUBLIC_BASE_URL',
      '',
      'Public base URL (e.g. behind a proxy), announced first in OpenAPI servers; empty = a relative server (`/`), never the Host a request names',
      optionalUrl,
    ),
    localBaseUrl: s('LOCAL_BASE_URL', '', 'Base URL of the local ingress, announced in OpenAPI when set', optionalUrl),
    logLevel: s('LOG_LEVEL', 'info', 'pino log level', oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent')),
    redisUrl: s('REDIS_URL', '', 'Redis URL for scale-out; empty = embedded SQLite store', optionalUrl),
    redisKeyPrefix: s('REDIS_KEY_PREFIX', 'stadtdaten:', 'Prefix of every Redis key (to share one Redis between deployments)', str),
    storePath: s('STORE_PATH', './data/stadtdaten.sqlite', 'SQLite file of the embedded store', str),
    checkUpstreamsResultPath: s(
      'CHECK_UPSTREAMS_RESULT_PATH',
      '',
      'JSON file where npm run check-upstreams writes the verdict per source of its last run and /api/v1/sources reads it; empty = not recorded',
      str,
    ),
    userAgent: s(
      'USER_AGENT',
      `Stadtdaten/${VERSION} (+https://github.com/stadtdaten/stadtdaten; open data proxy)`,
      'User-Agent sent to every upstream; names the service and a contact URL',
      str,
    ),
    requestBudgetMs: s(
      'REQUEST_BUDGET_MS',
      '10000',
      'Longest a request waits for an upstream (ms); a slower fetch goes on in the background and fills the cache',
      int(100, 120000),
    ),
    fetchDeadlineMs: s(
      'FETCH_DEADLINE_MS',
      '60000',
      'Longest one cache fill (all upstream calls of one answer) may run, also in the background, before it is aborted (ms)',
      int(1000, 600000),
    ),
    upstreamTimeoutMs: s('UPSTREAM_TIMEOUT_MS', '8000', 'Default per-call upstream timeout (ms)', int(100, 120000)),
    upstreamConnectTimeoutMs: s('UPSTREAM_CONNECT_TIMEOUT_MS', '3000', 'Upstream connect timeout (ms)', int(100, 60000)),
    maxResponseBytes: s(
      'UPSTREAM_MAX_RESPONSE_BYTES',
      String(8 * 1024 * 1024),
      'Cap on one upstream response body for sources that declare none (bytes; sources declare their own realistic caps)',
      int(1024, 2 ** 31 - 1),
    ),
    upstreamInflightMaxBytes: s(
      'UPSTREAM_INFLIGHT_MAX_BYTES',
      String(256 * 1024 * 1024),
      'Bytes all upstream bodies being read may hold together; a call beyond it is refused at once (0 = no global cap)',
      int(0, 2 ** 31 - 1),
    ),
    maxCities: s('MAX_CITIES', '84', 'Most cities in one compare call (at least 28)', int(28, 1000)),
    compareConcurrency: s(
      'COMPARE_CONCURRENCY',
      '28',
      'Parallel upstream fetches per compare call (the default fetches the 28 core cities in one wave; the upstream client holds at most 32 connections per origin)',
      int(1, 256),
    ),
    overviewBudgetMs: s(
      'OVERVIEW_BUDGET_MS',
      '2500',
      'Time cap of each overview highlight (ms, at most 3000; the default leaves the answer margin under its 3 s cap)',
      int(50, 3000),
    ),
    cacheMemoryMb: s(
      'CACHE_MEMORY_MB',
      '128',
      'Budget of the in-process copies of cache entries (MB, estimated from their JSON); past it the oldest leave first and are read from the store again',
      int(1, 65536),
    ),
    preparedViewMemoryMb: s(
      'PREPARED_VIEW_MEMORY_MB',
      '16',
      'Budget of the composed answers kept as bytes (city list, sources, overview, compare; per URL, which a client chooses) (MB); past it the oldest leave first',
      int(1, 4096),
    ),
    hitLaneMemoryMb: s(
      'HIT_LANE_MEMORY_MB',
      '8',
      'Budget of the URLs the cache-HIT lane answers in front of the router (MB, estimated); past it the oldest leave first and take the router again',
      int(1, 4096),
    ),
    preparedViewMs: s(
      'PREPARED_VIEW_MS',
      '1000',
      'Longest a composed answer (city list, sources, overview, compare) is served again as the same bytes while nothing it shows has changed (ms; 0 = compute every request)',
      int(0, 60000),
    ),
    mapTilesUrl: s(
      'MAP_TILES_URL',
      'https://sgx.geodatenzentrum.de/wmts_basemapde/tile/1.0.0/de_basemapde_web_raster_farbe/default/GLOBAL_WEBMERCATOR/{z}/{y}/{x}.png',
      'Basemap of the explorer map: an https raster tile template ({z}/{x}/{y}); the default is basemap.de Web Raster (BKG, dl-de/by-2-0); empty = no basemap, nothing requested from elsewhere (the demo sets it empty)',
      tileTemplate,
    ),
    mapTilesAttribution: s(
      'MAP_TILES_ATTRIBUTION',
      '© GeoBasis-DE / BKG {year}',
      'Attribution shown on the map for MAP_TILES_URL ({year} becomes the current year)',
      str,
    ),
    demo: s('DEMO', 'false', 'Label answers as demo data (set by npm run demo)', bool),
    jobs: s('JOBS_ENABLED', 'true', 'Run background jobs (pollers, precomputes) in this process', bool),
    gtfsRtPollProcess: s(
      'GTFS_RT_POLL_PROCESS',
      'auto',
      'Where the GTFS-RT poll (70 MB feed: fetch, decode, index, boards) and the weekly static GTFS build run: child = separate Node processes (the poll child with a capped heap), so the app never holds the feed or the zip (needs a store shared across processes: SQLite file or Redis); inline = in the app process; auto = child when the store is shared, else inline',
      oneOf('auto', 'child', 'inline'),
    ),
    gtfsRtPollHeapMb: s('GTFS_RT_POLL_HEAP_MB', '192', 'Heap cap (--max-old-space-size, MB) of the GTFS-RT poll child process', int(64, 8192)),
    gtfsRtPollChildKeep: s(
      'GTFS_RT_POLL_CHILD_KEEP',
      'false',
      'Keep the GTFS-RT poll child process alive between polls: a warm poll reuses the schedule the last one carried (the nationwide boards in 2.6-3.1 s instead of 4.4-5.1 s) for about 100 MB more resident memory while idle; false = the child exits after each poll',
      bool,
    ),
    gtfsRtPollIntervalS: s(
      'GTFS_RT_POLL_INTERVAL_S',
      '45',
      "Seconds between GTFS-RT polls; indexes expire after three intervals (meta.refresh_seconds stays the spec's 45)",
      int(5, 3600),
    ),
    compressEnabled: s('COMPRESS_ENABLED', 'true', 'Compress answers (brotli, gzip) for clients that accept it; false when a proxy in front compresses', bool),
    compressThresholdBytes: s('COMPRESS_THRESHOLD_BYTES', '1024', 'Answers smaller than this are sent uncompressed (bytes)', int(0, 100_000_000)),
    corsOrigin: s('CORS_ORIGIN', '*', 'Browser origins allowed to read answers: * (any) or a comma-separated list of origins', str),
    trustProxy: s(
      'TRUST_PROXY',
      'false',
      'Trust X-Forwarded-For from: false (nobody), true (any proxy), a hop count, or a comma list of proxy addresses/CIDRs; decides the client address the rate limit counts',
      trustProxy,
    ),
    serverRequestTimeoutMs: s('SERVER_REQUEST_TIMEOUT_MS', '30000', 'Longest a client may take to send a whole request (ms); then 408', int(1000, 600000)),
    serverHeadersTimeoutMs: s('SERVER_HEADERS_TIMEOUT_MS', '10000', 'Longest a client may take to send the request headers (ms); then 408', int(500, 600000)),
    serverKeepAliveTimeoutMs: s('SERVER_KEEP_ALIVE_TIMEOUT_MS', '72000', 'Idle time after which a keep-alive connection is closed (ms)', int(1000, 600000)),
    shutdownGraceMs: s(
      'SHUTDOWN_GRACE_MS',
      '15000',
      'On SIGTERM/SIGINT: how long requests in flight may take to be answered before their connections are cut (ms)',
      int(0, 600000),
    ),
    serverMaxConnections: s('SERVER_MAX_CONNECTIONS', '10000', 'Most open client connections per listener; further ones are refused', int(10, 1000000)),
    metricsPublic: s('METRICS_PUBLIC', 'false', 'Serve /metrics on the main ingress too (else only on the local ingress)', bool),
    rateLimitEnabled: s('RATE_LIMIT_ENABLED', 'true', 'Per-client rate limit on the main ingress (false for private deployments)', bool),
    rateLimitMax: s('RATE_LIMIT_MAX', '600', 'Requests one client address may make per window (each MCP batch member counts)', int(1, 10_000_000)),
    rateLimitWindowS: s('RATE_LIMIT_WINDOW_S', '60', 'Length of the rate-limit window (seconds)', int(1, 86400)),
    streamPollMs: s(
      'STREAM_POLL_MS',
      '5000',
      'Server-Sent Events: how often the one poller of a stream key (type, city, parameters) runs the data type through the pipeline (cache and breakers apply) to find a change (ms)',
      int(20, 3_600_000),
    ),
    streamHeartbeatMs: s(
      'STREAM_HEARTBEAT_MS',
      '20000',
      'Server-Sent Events: interval of the `: hb` comment that keeps proxies from closing an idle stream (ms)',
      int(100, 600_000),
    ),
    streamHistoryEvents: s(
      'STREAM_HISTORY_EVENTS',
      '16',
      'Server-Sent Events: changes kept per stream key for Last-Event-ID resumes; an older id gets a `reset` event with the current envelope',
      int(1, 1000),
    ),
    streamMaxPerClient: s('STREAM_MAX_PER_CLIENT', '8', 'Server-Sent Events: open streams one client address may hold; more answer 429', int(1, 100_000)),
    streamMaxTotal: s(
      'STREAM_MAX_TOTAL',
      '10000',
      'Server-Sent Events: open streams per instance; more answer 429 (mind SERVER_MAX_CONNECTIONS)',
      int(1, 1_000_000),
    ),
    streamMaxBufferedBytes: s(
      'STREAM_MAX_BUFFERED_BYTES',
      String(1024 * 1024),
      'Server-Sent Events: bytes a stream may have waiting unsent (a reader that does not drain); past it the stream is dropped, not buffered further',
      int(1024, 2 ** 31 - 1),
    ),
    mcpMaxBatch: s('MCP_MAX_BATCH', '20', 'Most JSON-RPC messages in one /mcp batch', int(1, 1000)),
    mcpIdleServers: s(
      'MCP_IDLE_SERVERS',
      '16',
      'MCP server objects kept between /mcp calls for reuse (each serves one call at a time; 0 = build one per call)',
      int(0, 1024),
    ),
    mcpAppsEnabled: s(
      'MCP_APPS_ENABLED',
      'true',
      'MCP Apps: tools name interactive views (ui://stadtdaten/… resources) that supporting hosts render beside the result; false = plain tools and no ui:// resources',
      bool,
    ),
    mcpAllowedHosts: s('MCP_ALLOWED_HOSTS', '127.0.0.1,localhost,[::1]', 'Host header values accepted on /mcp (DNS-rebinding guard)', list),
    mcpAllowedOrigins: s('MCP_ALLOWED_ORIGINS', '', 'Origins accepted on /mcp besides none/same-host (comma-separated)', list),
    historyEnabled: s('HISTORY_ENABLED', 'true', 'Record the values of recordable data types over time (GET …/{type}/history)', bool),
    historyPath: s('HISTORY_PATH', './data/history.sqlite', 'SQLite file of the history (when DATABASE_URL is empty; :memory: keeps it in memory)', str),
    databaseUrl: s('DATABASE_URL', '', 'PostgreSQL URL for the history (postgres://user@host:5432/db); empty = the SQLite file HISTORY_PATH', postgresUrl),
    historyRetentionDays: s('HISTORY_RETENTION_DAYS', '400', 'Days of history kept per data type (a type may declare its own)', int(1, 36500)),
    historyCitiesPerCycle: s(
      'HISTORY_CITIES_PER_CYCLE',
      '84',
      'Most cities whose recordable types one history refresh cycle fetches per type (bounds the upstream calls the recorder adds)',
      int(1, 10000),
    ),
    historyMaxPoints: s(
      'HISTORY_MAX_POINTS',
      '50000',
      'Most rows (points or buckets, all fields together) one history answer holds; a request for more is a 422 naming a coarser every or a shorter span',
      int(100, 10_000_000),
    ),
    historyReadWorkers: s('HISTORY_READ_WORKERS', '2', 'Worker threads that read and shape history answers off the event loop', int(1, 16)),
    historyCacheBytes: s(
      'HISTORY_CACHE_BYTES',
      '33554432',
      'Byte budget of the in-process cache of history answers (per range; the least recently used go first; 0 = no cache)',
      int(0, 4_294_967_296),
    ),
    historyBufferPoints: s(
      'HISTORY_BUFFER_POINTS',
      '100000',
      'Points the recorder keeps while the history store is unreachable, written when it returns (beyond it the oldest are dropped and counted)',
      int(0, 100_000_000),
    ),
    historyPg: {
      poolMax: s(
        'HISTORY_PG_POOL_MAX',
        String(HISTORY_PG_DEFAULTS.poolMax),
        'Connections each instance holds at most to the history PostgreSQL (DATABASE_URL)',
        int(1, 1000),
      ),
      connectTimeoutMs: s(
        'HISTORY_PG_CONNECT_TIMEOUT_MS',
        String(HISTORY_PG_DEFAULTS.connectTimeoutMs),
        'Longest wait for a connection to the history PostgreSQL; then the history answer is a 503 naming the store',
        int(100, 600_000),
      ),
      queryTimeoutMs: s(
        'HISTORY_PG_QUERY_TIMEOUT_MS',
        String(HISTORY_PG_DEFAULTS.queryTimeoutMs),
        'Longest wait for one query of the history PostgreSQL; then the history answer is a 503 naming the store',
        int(100, 3_600_000),
      ),
    },
    sources: {} as Record<string, SourceSettings>,
    sourceList: sources,
  };
  if (config.host === '') throw new ConfigError('HOST must not be empty');
  for (const src of sources) {
    const enabled = s(`${src.env}_ENABLED`, String(src.enabledByDefault ?? true), `Toggle for ${src.name}`, bool);
    const baseUrl = s(`${src.env}_BASE_URL`, src.baseUrl, `Base URL of ${src.name}`, url);
    const urls: Record<string, string> = {};
    for (const [key, u] of Object.entries(src.urls ?? {})) urls[key] = s(u.env, u.default, u.description, url);
    const credentials: Record<string, string> = {};
    const missingCredentials: string[] = [];
    for (const name of src.credentials ?? []) {
      const v = s(name, '', `Credential for ${src.name} (server-side; source is disabled without it)`, str).trim();
      if (v) credentials[name] = v;
      else missingCredentials.push(name);
    }
    const limits: Record<string, number> = {};
    for (const [key, l] of Object.entries(src.limits ?? {})) limits[key] = s(limitEnv(src, key), String(l.default), l.description, int(l.min, l.max));
    config.sources[src.id] = { enabled, baseUrl, urls, credentials, missingCredentials, limits };
  }
  return config;
}

export type Config = ReturnType<typeof loadConfig>;

/** Tells a configuration error (a clear message, exit 2; see startup.ts) from a crash. */
export function isConfigError(err: unknown): err is Error {
  return err instanceof ConfigError;
}

/**
 * Sources whose credentials are only partly set, grouped by what they lack: a typo'd or forgotten
 * variable that would otherwise leave a source silently `disabled`. A source switched off is not
 * counted, nor one whose only set variables are shared ones another source uses in full (the
 * Mobilithek certificate with one city's subscription, the DB Marketplace pair).
 */
export function partialCredentials(config: Pick<Config, 'sourceList' | 'sources'>): { sources: string[]; missing: string[] }[] {
  const complete = config.sourceList.filter((s) => s.credentials?.length && config.sources[s.id]?.missingCredentials.length === 0);
  const usedInFull = new Set(complete.flatMap((s) => s.credentials ?? []));
  const groups = new Map<string, { sources: string[]; missing: string[] }>();
  for (const src of config.sourceList) {
    const settings = config.sources[src.id];
    if (!settings?.enabled || !src.credentials?.length) continue;
    const set = src.credentials.filter((name) => !settings.missingCredentials.includes(name));
    if (set.length === 0 || settings.missingCredentials.length === 0 || set.every((name) => usedInFull.has(name))) continue;
    const key = settings.missingCredentials.join(',');
    const group = groups.get(key) ?? { sources: [], missing: settings.missingCredentials };
    group.sources.push(src.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The one start-up warning about partly set credentials (names only, never values), or null. */
export function partialCredentialsWarning(config: Pick<Config, 'sourceList' | 'sources'>): string | null {
  const groups = partialCredentials(config);
  if (groups.length === 0) return null;
  const parts = groups.map((g) => `${g.sources.join(', ')} ${g.sources.length === 1 ? 'lacks' : 'lack'} ${g.missing.join(', ')}`);
  return `credentials partly set, so these sources stay disabled: ${parts.join('; ')}. Set the missing variables (README "Credentials") or unset the others.`;
}
