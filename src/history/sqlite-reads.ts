import type { DatabaseSync, StatementSync } from '../store/sqlite-file.ts';
import { DAY_MS, daySpans, type HistorySize, type PointIn, type Row, type SeriesInfo } from './store.ts';

/** The newest value per field at or before a moment (compare?at=). */
export type AtValue = Pick<PointIn, 'field' | 'unit' | 't' | 'v' | 'source' | 'license'>;

/**
 * The history's reads on one SQLite connection, limited to the series of one origin. A worker
 * thread runs them on its own read-only connection (read-worker.ts); an in-memory database, which
 * no other connection can open, runs them on its own.
 */
export class SqliteReads {
  private readonly stmts = new Map<string, StatementSync>();

  private readonly db: DatabaseSync;
  private readonly origin: string;
  constructor(db: DatabaseSync, origin: string) {
    this.db = db;
    this.origin = origin;
  }

  private st(sql: string): StatementSync {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  series(type: string, city: string): SeriesInfo[] {
    return this.st(
      `SELECT s.field, s.unit, s.source, s.license, s.started_at AS startedAt,
         (SELECT MIN(t) FROM history_points WHERE series_id = s.id) AS first,
         (SELECT MAX(t) FROM history_points WHERE series_id = s.id) AS last,
         (SELECT COALESCE(SUM(points), 0) FROM history_daily WHERE series_id = s.id) AS points,
         (SELECT COALESCE(SUM(backfilled), 0) FROM history_daily WHERE series_id = s.id) AS backfilled
       FROM history_series s WHERE s.type = ? AND s.city = ? AND s.origin = ? ORDER BY s.id`,
    ).all(type, city, this.origin) as unknown as SeriesInfo[];
  }

  /** Rows of [from, to) (see HistoryStore.rows); at most `limit` + 1 per part, so a caller sees that the budget is exceeded. */
  rows(type: string, city: string, from: number, to: number, everyMs: number, limit = Number.MAX_SAFE_INTEGER): Row[] {
    if (everyMs !== DAY_MS) return this.pointRows(type, city, from, to, everyMs, limit);
    // Whole days from the rollups, the partial days at the edges from the points.
    const [head, days, tail] = daySpans(from, to);
    const daily = this.st(
      `SELECT s.field AS field, d.day AS t, d.min AS min, d.sum / d.n AS mean, d.max AS max, d.n AS n, d.backfilled > 0 AS backfilled
       FROM history_series s JOIN history_daily d ON d.series_id = s.id
       WHERE s.type = ? AND s.city = ? AND s.origin = ? AND d.day >= ? AND d.day < ? ORDER BY s.id, d.day LIMIT ?`,
    ).all(type, city, this.origin, days[0], days[1], limit + 1) as unknown as Row[];
    const edges = [...this.pointRows(type, city, head[0], head[1], everyMs, limit), ...this.pointRows(type, city, tail[0], tail[1], everyMs, limit)];
    const ids = this.st('SELECT field FROM history_series WHERE type = ? AND city = ? AND origin = ? ORDER BY id').all(type, city, this.origin) as {
      field: string;
    }[];
    const order = new Map(ids.map((x, i) => [x.field, i]));
    return [...daily.map((r) => ({ ...r, backfilled: Boolean(r.backfilled) })), ...edges].sort(
      (a, b) => (order.get(a.field) ?? 0) - (order.get(b.field) ?? 0) || a.t - b.t,
    );
  }

  private pointRows(type: string, city: string, from: number, to: number, everyMs: number, limit: number): Row[] {
    if (from >= to) return [];
    const sql =
      everyMs > 0
        ? `SELECT s.field AS field, (p.t / ${everyMs}) * ${everyMs} AS t, MIN(p.v) AS min, AVG(p.v) AS mean, MAX(p.v) AS max, COUNT(p.v) AS n,
             MAX(p.backfilled) AS backfilled
           FROM history_series s JOIN history_points p ON p.series_id = s.id
           WHERE s.type = ? AND s.city = ? AND s.origin = ? AND p.t >= ? AND p.t < ? GROUP BY s.id, p.t / ${everyMs} ORDER BY s.id, 2 LIMIT ?`
        : `SELECT s.field AS field, p.t AS t, p.v AS min, p.v AS mean, p.v AS max, 1 AS n, p.backfilled AS backfilled
           FROM history_series s JOIN history_points p ON p.series_id = s.id
           WHERE s.type = ? AND s.city = ? AND s.origin = ? AND p.t >= ? AND p.t < ? ORDER BY s.id, p.t LIMIT ?`;
    return (this.st(sql).all(type, city, this.origin, from, to, limit + 1) as unknown as Row[]).map((r) => ({ ...r, backfilled: Boolean(r.backfilled) }));
  }

  at(type: string, city: string, t: number): AtValue[] {
    return this.st(
      `SELECT s.field AS field, s.unit AS unit, p.t AS t, p.v AS v, s.source AS source, s.license AS license
       FROM history_series s JOIN history_points p ON p.series_id = s.id
       WHERE s.type = ? AND s.city = ? AND s.origin = ? AND p.t = (SELECT MAX(t) FROM history_points WHERE series_id = s.id AND t <= ?) ORDER BY s.id`,
    ).all(type, city, this.origin, t) as unknown as AtValue[];
  }

  cities(type: string): string[] {
    return (this.st('SELECT DISTINCT city FROM history_series WHERE type = ? AND origin = ? ORDER BY city').all(type, this.origin) as { city: string }[]).map(
      (r) => r.city,
    );
  }

  startedAt(type: string, city?: string): number | null {
    const row = (
      city === undefined
        ? this.st('SELECT MIN(started_at) AS s FROM history_series WHERE type = ? AND origin = ?').get(type, this.origin)
        : this.st('SELECT MIN(started_at) AS s FROM history_series WHERE type = ? AND city = ? AND origin = ?').get(type, city, this.origin)
    ) as { s: number | null };
    return row.s ?? null;
  }

  size(): HistorySize {
    const series = (this.st('SELECT COUNT(*) AS n FROM history_series').get() as { n: number }).n;
    const pages = this.db.prepare('PRAGMA page_count').get() as { page_count: number };
    const pageSize = this.db.prepare('PRAGMA page_size').get() as { page_size: number };
    return { series, bytes: pages.page_count * pageSize.page_size };
  }
}
