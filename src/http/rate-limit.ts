import { createRequire } from 'node:module';
import { Redis } from 'ioredis';

/**
 * Per-client request limits on @fastify/rate-limit's counter stores: its in-process LRU store,
 * or its Redis store (one Lua INCR+PEXPIRE per request) when REDIS_URL is set, so the limit
 * holds across instances. Callback style, no promise per request: this runs on every cache HIT.
 * While Redis is away the in-process store counts instead (per instance), so Redis loss never
 * fails or delays a request.
 */

type IncrCallback = (err: Error | null, res: { current: number; ttl: number } | null) => void;
interface CounterStore {
  incr(key: string, cb: IncrCallback, timeWindowMs: number, max: number): void;
}
type LocalStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, cacheSize: number) => CounterStore;
type RedisStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, prefix: string) => CounterStore;

const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as LocalStoreCtor;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as RedisStoreCtor;
const { normalizeIP } = require('@fastify/rate-limit') as { normalizeIP: (ip: string, ipv6Subnet?: number) => string };

export interface LimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetS: number;
  exceeded: boolean;
}

export interface LimiterOptions {
  max: number;
  windowS: number;
  redisUrl: string | null;
  redisKeyPrefix: string;
}

export class ClientLimiter {
  /** IETF draft-ietf-httpapi-ratelimit-headers: the policy, the same for every answer. */
  readonly policyHeader: string;
  private readonly local: CounterStore;
  private readonly shared: CounterStore | null;
  private readonly redis: Redis | null;
  private readonly windowMs: number;

  constructor(readonly opts: LimiterOptions) {
    this.windowMs = opts.windowS * 1000;
    this.policyHeader = `"per-client";q=${opts.max};w=${opts.windowS}`;
    this.local = new LocalStore(false, false, 50_000);
    if (opts.redisUrl) {
      this.redis = new Redis(opts.redisUrl, {
        keyPrefix: opts.redisKeyPrefix,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 250,
        connectTimeout: 1000,
        retryStrategy: () => 250,
      });
      this.redis.on('error', () => {});
      this.shared = new RedisStore(false, false, this.redis, 'ratelimit-client:');
    } else {
      this.redis = null;
      this.shared = null;
    }
  }

  /** Waits (briefly) for the shared counter store, so the first requests count across instances too. */
  ready(timeoutMs: number): Promise<boolean> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** The counting key of a client address (IPv6 by its /64, as one host usually holds one). */
  keyOf(ip: string | undefined): string {
    // A socket already gone has no address; such requests share one key.
    return ip ? normalizeIP(ip) : 'unknown';
  }

  /** Counts `n` requests of `key`; `cb` gets the state after the last one. */
  consume(key: string, n: number, cb: (s: LimitState) => void): void {
    const { max } = this.opts;
    let left = n;
    const step: IncrCallback = (err, res) => {
      if (err || !res) {
        // Shared store away: count in this process instead (only Redis can fail here).
        this.local.incr(key, step, this.windowMs, max);
        return;
      }
      if (--left > 0 && res.current <= max) return this.incr(key, step);
      cb({ limit: max, remaining: Math.max(0, max - res.current), resetS: Math.max(0, Math.ceil(res.ttl / 1000)), exceeded: res.current > max });
    };
    this.incr(key, step);
  }

  private incr(key: string, cb: IncrCallback) {
    const store = this.shared && this.redis?.status === 'ready' ? this.shared : this.local;
    store.incr(key, cb, this.windowMs, this.opts.max);
  }

  /** The `RateLimit` header of a state. */
  static header(s: LimitState): string {
    return `"per-client";r=${s.remaining};t=${s.resetS}`;
  }

  async close() {
    this.redis?.disconnect();
  }
}
