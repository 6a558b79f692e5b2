import { numberAt, type BackfillPoint, type FreshValue, type HistorySink } from '../core/history.ts';
import type { Store } from '../core/store.ts';
import type { HistoryStore, PointIn } from './store.ts';

export interface RecorderLog {
  warn(obj: object, msg: string): void;
}

/**
 * Keeps each fresh value of a recordable type: one point per declared field at the upstream's own
 * time (as_of; the fetch time when the upstream gives none), so a value served twice is kept
 * once. Writes happen off the request path; `settled()` waits for those in flight.
 */
export class Recorder implements HistorySink {
  /** The newest time recorded per type and city in this process: repeats never reach the store. */
  private readonly newest = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    readonly store: HistoryStore,
    /** The cluster store: its lock makes one instance the writer of a value (Redis shares it across instances). */
    private readonly lock: Store,
    private readonly log: RecorderLog,
  ) {}

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
    const started = await this.store.startedAt(value.type, value.city.slug);
    await this.store.insert(points);
    if (started !== null || !backfill) return;
    // A new series: what the upstream still publishes of its past, marked as backfilled.
    const units = new Map(value.history.fields.map((f) => [f.name, f.unit]));
    const past = await backfill();
    const rows = past.flatMap((p) =>
      Object.entries(p.values)
        .filter(([field]) => units.has(field))
        .map(([field, v]) => this.point(value, field, units.get(field)!, Date.parse(p.t), v, true)),
    );
    await this.store.insert(rows.filter((r) => Number.isFinite(r.t)));
  }

  private track(task: Promise<void>) {
    const p = task.catch((err: unknown) => this.log.warn({ err: String(err) }, 'recording history failed')).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Resolves once every write started so far has ended (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
