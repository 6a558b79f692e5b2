import type { Config } from '../core/config.ts';
import { ResilientStore } from './resilient.ts';
import { SqliteStore } from './sqlite.ts';
import type { Store } from '../core/store.ts';

/**
 * Redis when REDIS_URL is set (wrapped so its outage degrades, never fails), else SQLite. The
 * Redis client is loaded only then: it adds memory to a process that never uses it (bench/README.md, "Figures behind code comments").
 */
export async function createStore(config: Config, onRedisError: (err: unknown) => void): Promise<Store> {
  if (config.redisUrl) {
    const { RedisStore } = await import('./redis.ts');
    return new ResilientStore(new RedisStore(config.redisUrl, { keyPrefix: config.redisKeyPrefix }), onRedisError);
  }
  return new SqliteStore(config.storePath);
}
