import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { inTransaction, openSqlite, type DatabaseSync, type StatementSync } from '../store/sqlite-file.ts';
import { MIGRATIONS, SCHEMA_VERSION_TABLE } from './migrations.ts';
import type { HistorySize, HistoryStore, PointIn, Row, SeriesInfo } from './store.ts';

type Sql = string | number | null;

/** The history in one embedded SQLite file (HISTORY_PATH; `:memory:` for tests): zero set-up. */
export class SqliteHistoryStore implements HistoryStore {
  readonly kind = 'sqlite';
  private readonly db: DatabaseSync;
  private readonly ids = new Map<string, number>();
  private readonly stmts = new Map<string, StatementSync>();

  constructor(private readonly path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = openSqlite(path);
  }

  private st(sql: string): StatementSync {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  async migrate(): Promise<void> {
    this.db.exec(SCHEMA_VERSION_TABLE.sqlite);
    const current = Number((this.db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number | null }).v ?? 0);
    for (const m of MIGRATIONS.filter((x) => x.version > current)) {
      inTransaction(this.db, () => {
        for (const sql of m.sqlite) this.db.exec(sql);
        this.db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)').run(m.version, Date.now());
      });
    }
  }

  private seriesId(p: PointIn, now: number): number {
    const key = `${p.type}\u0000${p.city}\u0000${p.field}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const row = this.st(
      `INSERT INTO history_series (type, city, field, unit, source, license, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (type, city, field) DO UPDATE SET unit = excluded.unit RETURNING id`,
    ).get(p.type, p.city, p.field, p.unit, p.source, p.license, now) as { id: number };
    this.ids.set(key, row.id);
    return row.id;
  }

  async insert(points: readonly PointIn[]): Promise<number> {
    if (!points.length) return 0;
    const now = Date.now();
    return inTransaction(this.db, () => {
      const ins = this.st('INSERT OR IGNORE INTO history_points (series_id, t, v, backfilled) VALUES (?, ?, ?, ?)');
      let added = 0;
      for (const p of points) added += Number(ins.run(this.seriesId(p, now), p.t, p.v, p.backfilled ? 1 : 0).changes);
      return added;
    });
  }

  async series(type: string, city: string): Promise<SeriesInfo[]> {
    const rows = this.st(
      `SELECT s.field, s.unit, s.source, s.license, s.started_at AS startedAt,
         (SELECT MIN(t) FROM history_points WHERE series_id = s.id) AS first,
         (SELECT MAX(t) FROM history_points WHERE series_id = s.id) AS last,
         (SELECT COUNT(*) FROM history_points WHERE series_id = s.id) AS points,
         (SELECT COUNT(*) FROM history_points WHERE series_id = s.id AND backfilled = 1) AS backfilled
       FROM history_series s WHERE s.type = ? AND s.city = ? ORDER BY s.id`,
    ).all(type, city);
    return rows as unknown as SeriesInfo[];
  }

  async rows(type: string, city: string, from: number, to: number, everyMs: number): Promise<Row[]> {
    const params: Sql[] = [type, city, from, to];
    const sql =
      everyMs > 0
        ? `SELECT s.field AS field, (p.t / ${everyMs}) * ${everyMs} AS t, MIN(p.v) AS min, AVG(p.v) AS mean, MAX(p.v) AS max, COUNT(p.v) AS n,
             MAX(p.backfilled) AS backfilled
           FROM history_series s JOIN history_points p ON p.series_id = s.id
           WHERE s.type = ? AND s.city = ? AND p.t >= ? AND p.t < ? GROUP BY s.id, p.t / ${everyMs} ORDER BY s.id, 2`
        : `SELECT s.field AS field, p.t AS t, p.v AS min, p.v AS mean, p.v AS max, 1 AS n, p.backfilled AS backfilled
           FROM history_series s JOIN history_points p ON p.series_id = s.id
           WHERE s.type = ? AND s.city = ? AND p.t >= ? AND p.t < ? ORDER BY s.id, p.t`;
    return (this.st(sql).all(...params) as unknown as Row[]).map((r) => ({ ...r, backfilled: Boolean(r.backfilled) }));
  }

  async at(type: string, city: string, t: number) {
    return this.st(
      `SELECT s.field AS field, s.unit AS unit, p.t AS t, p.v AS v, s.source AS source, s.license AS license
       FROM history_series s JOIN history_points p ON p.series_id = s.id
       WHERE s.type = ? AND s.city = ? AND p.t = (SELECT MAX(t) FROM history_points WHERE series_id = s.id AND t <= ?) ORDER BY s.id`,
    ).all(type, city, t) as unknown as { field: string; unit: string; t: number; v: number | null; source: string; license: string }[];
  }

  async cities(type: string): Promise<string[]> {
    return (this.st('SELECT DISTINCT city FROM history_series WHERE type = ? ORDER BY city').all(type) as { city: string }[]).map((r) => r.city);
  }

  async startedAt(type: string, city?: string): Promise<number | null> {
    const row = (
      city === undefined
        ? this.st('SELECT MIN(started_at) AS s FROM history_series WHERE type = ?').get(type)
        : this.st('SELECT MIN(started_at) AS s FROM history_series WHERE type = ? AND city = ?').get(type, city)
    ) as { s: number | null };
    return row.s ?? null;
  }

  async prune(type: string, before: number): Promise<number> {
    const r = this.st('DELETE FROM history_points WHERE series_id IN (SELECT id FROM history_series WHERE type = ?) AND t < ?').run(type, before);
    return Number(r.changes);
  }

  async size(): Promise<HistorySize> {
    const series = (this.st('SELECT COUNT(*) AS n FROM history_series').get() as { n: number }).n;
    const pages = this.db.prepare('PRAGMA page_count').get() as { page_count: number };
    const pageSize = this.db.prepare('PRAGMA page_size').get() as { page_size: number };
    return { series, bytes: pages.page_count * pageSize.page_size };
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }

  /** The file (for the bench's size figures). */
  get file(): string {
    return this.path;
  }
}
