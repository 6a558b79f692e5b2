import { Redis } from 'ioredis';
import type { Store } from '../core/store.ts';

/**
 * Redis for scale-out. Commands fail fast while Redis is away (no offline queue, short
 * timeouts) so the caller can fall back instead of hanging; ioredis reconnects by itself.
 */
export class RedisStore implements Store {
  readonly kind = 'redis' as const;
  readonly client: Redis;

  private readonly prefix: string;

  constructor(url: string, opts: { commandTimeoutMs?: number; keyPrefix?: string } = {}) {
    this.prefix = opts.keyPrefix ?? '';
    this.client = new Redis(url, {
      keyPrefix: this.prefix,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: opts.commandTimeoutMs ?? 500,
      connectTimeout: 1000,
      retryStrategy: () => 250,
      lazyConnect: false,
    });
    // Connection errors are reported through ping()/health; without a listener ioredis logs them loudly.
    this.client.on('error', () => {});
  }

  /** Commands fail fast while disconnected, so the start waits (briefly) for the first connection. */
  ready(timeoutMs: number): Promise<boolean> {
    if (this.client.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.client.once('ready', onReady);
    });
  }

  async get(key: string) {
    return this.client.get(key);
  }
  async set(key: string, value: string, ttlMs?: number) {
    if (ttlMs) await this.client.set(key, value, 'PX', Math.max(1, Math.round(ttlMs)));
    else await this.client.set(key, value);
  }
  async del(key: string) {
    await this.client.del(key);
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    return (await this.client.set(key, value, 'PX', Math.max(1, Math.round(ttlMs)), 'NX')) === 'OK';
  }
  async delIfEquals(key: string, value: string) {
    await this.client.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", 1, key, value);
  }
  async incr(key: string, ttlMs: number) {
    const n = await this.client.incr(key);
    if (n === 1) await this.client.pexpire(key, Math.max(1, Math.round(ttlMs)));
    return n;
  }
  async keys(prefix: string) {
    const out: string[] = [];
    let cursor = '0';
    do {
      // SCAN ignores ioredis' keyPrefix: match and strip it by hand.
      const [next, batch] = await this.client.scan(cursor, 'MATCH', (this.prefix + prefix).replace(/[*?[\]]/g, '\\$&') + '*', 'COUNT', 500);
      out.push(...batch.map((k) => k.slice(this.prefix.length)));
      cursor = next;
    } while (cursor !== '0');
    return out;
  }
  async ping() {
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }
  async close() {
    this.client.disconnect();
  }
}
