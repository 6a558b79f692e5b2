/**
 * The one storage interface behind the cache, breaker sharing, locks and precomputed data.
 * Values are strings (JSON prepared once); TTLs are in milliseconds.
 */
export interface Store {
  readonly kind: 'sqlite' | 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Set only when absent (a lock); true when this caller now holds it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Delete only when the value still equals `value` (releasing one's own lock). */
  delIfEquals(key: string, value: string): Promise<void>;
  /** Atomically add one to a counter that lives `ttlMs` from its first increment. */
  incr(key: string, ttlMs: number): Promise<number>;
  /** Keys with a prefix (small scans only: jobs and admin views). */
  keys(prefix: string): Promise<string[]>;
  ping(): Promise<boolean>;
  /** Resolves once the store can take commands (or the wait is over); true when connected. */
  ready?(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}
