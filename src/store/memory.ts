import type { Store } from '../core/store.ts';

/** In-process store: the fallback while Redis is away, and a unit-test helper. */
export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  private readonly map = new Map<string, { v: string; exp: number }>();

  private live(key: string): { v: string; exp: number } | undefined {
    const e = this.map.get(key);
    if (e && e.exp !== 0 && e.exp <= Date.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e;
  }
  async get(key: string) {
    return this.live(key)?.v ?? null;
  }
  async set(key: string, value: string, ttlMs?: number) {
    this.map.set(key, { v: value, exp: ttlMs ? Date.now() + ttlMs : 0 });
    if (this.map.size > 50_000) this.evict();
  }
  async del(key: string) {
    this.map.delete(key);
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    if (this.live(key)) return false;
    await this.set(key, value, ttlMs);
    return true;
  }
  async delIfEquals(key: string, value: string) {
    if (this.live(key)?.v === value) this.map.delete(key);
  }
  async incr(key: string, ttlMs: number) {
    const e = this.live(key);
    const n = (e ? Number(e.v) : 0) + 1;
    this.map.set(key, { v: String(n), exp: e ? e.exp : Date.now() + ttlMs });
    return n;
  }
  async keys(prefix: string) {
    return [...this.map.keys()].filter((k) => k.startsWith(prefix) && this.live(k));
  }
  async ping() {
    return true;
  }
  async close() {
    this.map.clear();
  }

  private evict() {
    const now = Date.now();
    for (const [k, e] of this.map) if (e.exp !== 0 && e.exp <= now) this.map.delete(k);
    // Oldest insertions go first when still too large.
    for (const k of this.map.keys()) {
      if (this.map.size <= 40_000) break;
      this.map.delete(k);
    }
  }
}
