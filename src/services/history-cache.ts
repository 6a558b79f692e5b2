/**
 * One history answer as kept: the JSON answer's bytes in three parts (outside the JS heap, never
 * copied into one), where each chunk of rows starts in `data`, the meta, the ETag.
 */
export interface HistoryAnswerParts {
  /** `{"data":[`, the rows, `],"meta":…}`. */
  body: [Buffer, Buffer, Buffer];
  /** Byte offsets in body[1] of each chunk of rows (each but the last ends with a comma). */
  chunks: number[];
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

  private readonly budgetBytes: number;
  constructor(budgetBytes: number) {
    this.budgetBytes = budgetBytes;
  }

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
    const bytes = parts.body.reduce((n, b) => n + b.length, 0);
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
