/**
 * A Map within a byte budget: each entry is charged `sizeOf(key, value)` bytes (an estimate of
 * what it holds), and the oldest entries go first when a new one would pass the budget. An entry
 * larger than the whole budget is not kept. For caches keyed by request data (URLs, query strings),
 * whose count a client chooses: what they hold is set by configuration, not by traffic.
 * Oldest by insertion, not by use: a lookup costs one Map read on hot paths.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private used = 0;

  readonly maxBytes: number;
  private readonly sizeOf: (key: K, value: V) => number;
  constructor(maxBytes: number, sizeOf: (key: K, value: V) => number) {
    this.maxBytes = maxBytes;
    this.sizeOf = sizeOf;
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Keeps the entry, dropping the oldest ones as needed; false (and nothing kept) when it alone is over the budget. */
  set(key: K, value: V): boolean {
    this.delete(key);
    const bytes = this.sizeOf(key, value);
    if (bytes > this.maxBytes) return false;
    while (this.used + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    return true;
  }

  delete(key: K): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    this.entries.delete(key);
    this.used -= e.bytes;
    return true;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes charged for the entries kept now. */
  get bytes(): number {
    return this.used;
  }
}
