import { MemoryStore } from './memory.ts';
import type { Store } from '../core/store.ts';

/**
 * Wraps the shared store so that its outage never fails a request: every operation that
 * throws is served by an in-process store instead, and the primary is used again as soon
 * as it answers. `reachable` feeds /health.
 */
export class ResilientStore implements Store {
  readonly fallback = new MemoryStore();
  reachable = true;
  private lastError: string | null = null;

  readonly primary: Store;
  private readonly onError: (err: unknown) => void;
  constructor(primary: Store, onError: (err: unknown) => void = () => {}) {
    this.primary = primary;
    this.onError = onError;
  }

  get kind() {
    return this.primary.kind;
  }
  get error() {
    return this.lastError;
  }

  private async run<T>(fn: (s: Store) => Promise<T>): Promise<T> {
    try {
      const v = await fn(this.primary);
      if (!this.reachable) {
        this.reachable = true;
        this.lastError = null;
      }
      return v;
    } catch (err) {
      if (this.reachable) this.onError(err);
      this.reachable = false;
      this.lastError = err instanceof Error ? err.message : String(err);
      return fn(this.fallback);
    }
  }

  get(key: string) {
    return this.run((s) => s.get(key));
  }
  set(key: string, value: string, ttlMs?: number) {
    return this.run((s) => s.set(key, value, ttlMs));
  }
  del(key: string) {
    return this.run((s) => s.del(key));
  }
  setIfAbsent(key: string, value: string, ttlMs: number) {
    return this.run((s) => s.setIfAbsent(key, value, ttlMs));
  }
  delIfEquals(key: string, value: string) {
    return this.run((s) => s.delIfEquals(key, value));
  }
  incr(key: string, ttlMs: number) {
    return this.run((s) => s.incr(key, ttlMs));
  }
  keys(prefix: string) {
    return this.run((s) => s.keys(prefix));
  }
  async ping() {
    const ok = await this.primary.ping();
    // A failed ping starts an outage as a failed command does: one call of onError (one log line) per outage.
    if (!ok && this.reachable) this.onError(new Error('ping failed'));
    this.reachable = ok;
    return ok;
  }
  async ready(timeoutMs: number) {
    const ok = this.primary.ready ? await this.primary.ready(timeoutMs) : true;
    this.reachable = ok;
    return ok;
  }
  async close() {
    await this.primary.close();
    await this.fallback.close();
  }
}
