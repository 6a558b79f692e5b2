import ipaddr from 'ipaddr.js';
import type { Redis, RedisOptions } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Per-client request limits on rate-limiter-flexible's public API: one fixed window per client
 * address, counted in this process, or in Redis (one atomic script per request) when REDIS_URL is
 * set, so the limit holds across instances. While Redis is away an in-process limiter insures it
 * (per instance), so Redis loss never fails or delays a request. The HIT lane, the router's guard
 * and the MCP route share one ClientLimiter.
 */

export interface LimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetS: number;
  exceeded: boolean;
}

/** Addresses whose key is kept (each at most MAX_ADDRESS_LENGTH characters: under 1 MB in all). */
const MAX_KEYS = 4096;
const MAX_ADDRESS_LENGTH = 64;

function keyOfAddress(ip: string): string {
  try {
    const addr = ipaddr.process(ip);
    if (addr.kind() === 'ipv4') return addr.toString();
    return (
      (addr as ipaddr.IPv6).parts
        .slice(0, 4)
        .map((p) => p.toString(16))
        .join(':') + '::/64'
    );
  } catch {
    return ip;
  }
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
  private readonly limiter: RateLimiterAbstract;
  private readonly redis: Redis | null;

  /**
   * The limiter for these options. The Redis client is loaded only when REDIS_URL is set: ioredis
   * adds resident memory to a process that never uses it (bench/README.md, "Figures behind code comments").
   */
  static async create(opts: LimiterOptions): Promise<ClientLimiter> {
    return new ClientLimiter(opts, opts.redisUrl ? (await import('ioredis')).Redis : null);
  }

  readonly opts: LimiterOptions;
  private constructor(opts: LimiterOptions, RedisClient: (new (url: string, o: RedisOptions) => Redis) | null) {
    this.opts = opts;
    this.policyHeader = `"per-client";q=${opts.max};w=${opts.windowS}`;
    const window = { points: opts.max, duration: opts.windowS };
    const local = new RateLimiterMemory({ ...window, keyPrefix: 'client' });
    if (opts.redisUrl && RedisClient) {
      this.redis = new RedisClient(opts.redisUrl, {
        keyPrefix: opts.redisKeyPrefix,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 250,
        connectTimeout: 1000,
        retryStrategy: () => 250,
      });
      this.redis.on('error', () => {});
      this.limiter = new RateLimiterRedis({
        ...window,
        storeClient: this.redis,
        keyPrefix: 'ratelimit-client',
        rejectIfRedisNotReady: true,
        insuranceLimiter: local,
      });
    } else {
      this.redis = null;
      this.limiter = local;
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

  /** Keys of the addresses seen lately: parsing an address costs a measurable share of a cache HIT. */
  private readonly keys = new Map<string, string>();

  /** The counting key of a client address: IPv6 by its /64, as one host usually holds one. */
  keyOf(ip: string | undefined): string {
    // A socket already gone has no address; such requests share one key.
    if (!ip) return 'unknown';
    let key = this.keys.get(ip);
    if (key !== undefined) return key;
    key = keyOfAddress(ip);
    // Forwarded addresses are a client's text: only address-sized ones are kept, and a bounded number.
    if (ip.length <= MAX_ADDRESS_LENGTH) {
      if (this.keys.size >= MAX_KEYS) this.keys.clear();
      this.keys.set(ip, key);
    }
    return key;
  }

  /** Counts `n` requests of `key`; `cb` gets the state after them. */
  consume(key: string, n: number, cb: (s: LimitState) => void): void {
    this.limiter.consume(key, n).then(
      (res) => cb(this.state(res, false)),
      (res: unknown) => cb(res instanceof RateLimiterRes ? this.state(res, true) : this.unknownState()),
    );
  }

  private state(res: RateLimiterRes, exceeded: boolean): LimitState {
    const max = this.opts.max;
    return { limit: max, remaining: Math.max(0, max - res.consumedPoints), resetS: Math.max(0, Math.ceil(res.msBeforeNext / 1000)), exceeded };
  }

  /** Neither Redis nor the insurance answered (cannot happen in-process): admit, as Redis loss must never refuse. */
  private unknownState(): LimitState {
    return { limit: this.opts.max, remaining: this.opts.max, resetS: this.opts.windowS, exceeded: false };
  }

  /** The `RateLimit` header of a state. */
  static header(s: LimitState): string {
    return `"per-client";r=${s.remaining};t=${s.resetS}`;
  }

  async close() {
    this.redis?.disconnect();
  }
}
