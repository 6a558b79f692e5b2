import { numberAt, type BackfillPoint, type FreshValue, type HistorySink } from '../core/history-sink.ts';
import type { Store } from '../core/store.ts';
import type { HistoryStore, PointIn } from './store.ts';

export interface RecorderLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RecorderOptions {
  /** Points kept while the store is unreachable (HISTORY_BUFFER_POINTS); beyond it the oldest are dropped. */
  bufferPoints: number;
  /** How long to wait before writing the kept points again. */
  retryMs?: number;
}

/** How the store is named in logs and problems: its kind, never its address. */
export function storeName(store: Pick<HistoryStore, 'kind'>): string {
  return store.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'SQLite (HISTORY_PATH)';
}

/**
 * Keeps each fresh value of a recordable type: one point per declared field at the upstream's own
 * time (as_of; the fetch time when the upstream gives none), so a value served twice is kept
 * once. Writes happen off the request path; `settled()` waits for those in flight. Points taken
 * while the store is unreachable are kept (bounded) and written when it answers again.
 */
export class Recorder implements HistorySink {
  /** The newest time recorded per type and city in this process: repeats never reach the store. */
  private readonly newest = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();
  /** Points waiting for the store, oldest first. */
  private buffer: PointIn[] = [];
  private retry: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** Points dropped from a full buffer since start (a counter in /metrics). */
  dropped = 0;
  /** Whether the latest use of the store succeeded: health says so, and its change is logged once. */
  reachable = true;

  readonly store: HistoryStore;
  /** The cluster store: its lock makes one instance the writer of a value (Redis shares it across instances). */
  private readonly lock: Store;
  private readonly log: RecorderLog;
  private readonly opts: RecorderOptions;
  constructor(store: HistoryStore, lock: Store, log: RecorderLog, opts: RecorderOptions = { bufferPoints: 100_000 }) {
    this.store = store;
    this.lock = lock;
    this.log = log;
    this.opts = opts;
  }

  /** Writes per type and city in this process: a cached history answer is keyed by it, so a new point is never hidden by one. */
  private readonly writes = new Map<string, number>();

  /** How often points of this type and city were written by this process. */
  generation(type: string, city: string): number {
    return this.writes.get(`${type}:${city}`) ?? 0;
  }

  private wrote(points: readonly PointIn[]) {
    for (const key of new Set(points.map((p) => `${p.type}:${p.city}`))) this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
  }

  /** Points waiting for the store. */
  get buffered(): number {
    return this.buffer.length;
  }

  fresh(value: FreshValue, backfill: (() => Promise<BackfillPoint[]>) | null): void {
    const t = (value.asOf ? Date.parse(value.asOf) : NaN) || value.fetchedAt;
    const series = `${value.type}:${value.city.slug}`;
    if ((this.newest.get(series) ?? -Infinity) >= t) return;
    const base = value.summarise && value.data !== null ? value.summarise(value.data) : value.data;
    const points = value.history.fields.map((f) => this.point(value, f.name, f.unit, t, numberAt(base, f.path), false));
    if (points.every((p) => p.v === null)) return;
    this.newest.set(series, t);
    this.track(this.write(series, t, value, points, backfill));
  }

  private point(value: FreshValue, field: string, unit: string, t: number, v: number | null, backfilled: boolean): PointIn {
    return { type: value.type, city: value.city.slug, field, unit, t, v, source: value.source, license: value.license, backfilled };
  }

  private async write(series: string, t: number, value: FreshValue, points: PointIn[], backfill: (() => Promise<BackfillPoint[]>) | null) {
    // One writer per value across instances; the lock outlives the write so a late twin skips it.
    if (!(await this.lock.setIfAbsent(`historylock:${series}:${t}`, '1', 3_600_000).catch(() => true))) return;
    let started: number | null;
    try {
      started = await this.store.startedAt(value.type, value.city.slug);
      await this.store.insert(points);
      this.wrote(points);
    } catch {
      // The store is away: the points wait for it (a new series' backfill is read again by no one; the live points are kept).
      this.keep(points);
      return;
    }
    this.noteStore(true);
    if (this.buffer.length) void this.flush();
    if (started !== null || !backfill) return;
    // A new series: what the upstream still publishes of its past, marked as backfilled.
    const units = new Map(value.history.fields.map((f) => [f.name, f.unit]));
    const past = await backfill();
    const rows = past.flatMap((p) =>
      Object.entries(p.values)
        .filter(([field]) => units.has(field))
        .map(([field, v]) => this.point(value, field, units.get(field)!, Date.parse(p.t), v, true)),
    );
    const kept = rows.filter((r) => Number.isFinite(r.t));
    await this.store.insert(kept);
    this.wrote(kept);
  }

  /** Keeps points for a later write, dropping the oldest beyond the budget, and schedules that write. */
  private keep(points: readonly PointIn[]) {
    this.noteStore(false);
    this.buffer.push(...points);
    const excess = this.buffer.length - this.opts.bufferPoints;
    if (excess > 0) {
      this.buffer.splice(0, excess);
      this.dropped += excess;
    }
    this.retry ??= setTimeout(() => {
      this.retry = null;
      void this.flush();
    }, this.opts.retryMs ?? 1000).unref();
  }

  /** Writes the kept points (one attempt; on failure they are kept and retried later). Resolves when that attempt ended. */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      while (this.buffer.length) {
        const batch = this.buffer;
        this.buffer = [];
        try {
          await this.store.insert(batch);
          this.wrote(batch);
        } catch {
          // Back in front of what arrived meanwhile, within the budget.
          const rest = this.buffer;
          this.buffer = batch;
          this.keep(rest);
          return;
        }
        this.noteStore(true);
      }
    })().finally(() => (this.flushing = null));
    return this.flushing;
  }

  /** The store answered (or not): a change is logged once, by name, never with the error (which may carry its address). */
  noteStore(ok: boolean) {
    if (ok === this.reachable) return;
    this.reachable = ok;
    const name = storeName(this.store);
    if (ok) this.log.info({ store: this.store.kind }, `history store ${name} answers again; points kept meanwhile are written`);
    else
      this.log.warn(
        { store: this.store.kind },
        `history store ${name} unreachable: history answers 503 history_store_unavailable and new points are kept in memory (HISTORY_BUFFER_POINTS) until it answers`,
      );
  }

  private track(task: Promise<void>) {
    // What fails here is a backfill (its upstream, or its write); the error's text may carry an address and is not logged.
    const p = task
      .catch(() => this.log.warn({ store: this.store.kind }, 'history backfill failed; the series is recorded from now on'))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Resolves once every write started so far has ended (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** Stops retrying (shutdown): the kept points are written once more if the store answers. */
  async close(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    await this.settled();
    await this.flush();
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }
}
