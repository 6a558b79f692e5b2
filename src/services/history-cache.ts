/** One history answer as kept: the data array's JSON in chunks, the meta, the ETag of the JSON answer. */
export interface HistoryAnswerParts {
  chunks: string[];
  meta: Record<string, unknown>;
  etag: string;
}

interface Kept {
  parts: HistoryAnswerParts;
  bytes: number;
  expires: number;
}

/**
 * History answers per range (type, city, from, to, every and the series' write count), kept for
 * the type's cache window under a byte budget, least recently used dropped first. Concurrent
 * requests for one range share one read. A range's key comes from parsed values only, so no raw
 * input is kept.
 */
export class HistoryAnswerCache {
  private readonly kept = new Map<string, Kept>();
  private readonly inflight = new Map<string, Promise<HistoryAnswerParts>>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  async get(key: string, ttlMs: number, build: () => Promise<HistoryAnswerParts>): Promise<HistoryAnswerParts> {
    const hit = this.kept.get(key);
    if (hit && hit.expires > Date.now()) {
      // Re-inserted: Map order is the recency order.
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit.parts;
    }
    if (hit) this.drop(key, hit);
    const running = this.inflight.get(key);
    if (running) return running;
    const p = build()
      .then((parts) => {
        this.keep(key, parts, ttlMs);
        return parts;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }

  private keep(key: string, parts: HistoryAnswerParts, ttlMs: number) {
    // Strings of ASCII JSON: a character is a byte; the meta is small and counted at a generous size.
    const bytes = parts.chunks.reduce((n, c) => n + c.length, 0) + 4096;
    // One answer never takes more than half the budget, so a single range cannot empty the cache.
    if (ttlMs <= 0 || bytes > this.budgetBytes / 2) return;
    this.kept.set(key, { parts, bytes, expires: Date.now() + ttlMs });
    this.bytes += bytes;
    for (const [k, v] of this.kept) {
      if (this.bytes <= this.budgetBytes) break;
      this.drop(k, v);
    }
  }

  private drop(key: string, kept: Kept) {
    this.kept.delete(key);
    this.bytes -= kept.bytes;
  }

  /** Bytes kept (tests, metrics). */
  get size(): number {
    return this.bytes;
  }
}
