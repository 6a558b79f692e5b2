import type { Config } from '../config.ts';
import { RedisStore } from './redis.ts';
import { ResilientStore } from './resilient.ts';
import { SqliteStore } from './sqlite.ts';
import type { Store } from '../core/store.ts';

/** Redis when REDIS_URL is set (wrapped so its outage degrades, never fails), else SQLite. */
export function createStore(config: Config, onRedisError: (err: unknown) => void): Store {
  if (config.redisUrl) return new ResilientStore(new RedisStore(config.redisUrl, { keyPrefix: config.redisKeyPrefix }), onRedisError);
  return new SqliteStore(config.storePath);
}
