import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { inTransaction, openSqlite, type DatabaseSync, type StatementSync } from '../store/sqlite-file.ts';
import { MIGRATIONS, SCHEMA_VERSION_TABLE } from './migrations.ts';
import { DAY_MS, daySpans, type HistorySize, type HistoryStore, type PointIn, type Row, type SeriesInfo } from './store.ts';

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
      const touched = new Map<string, [number, number]>();
      for (const p of points) {
        const id = this.seriesId(p, now);
        const changed = Number(ins.run(id, p.t, p.v, p.backfilled ? 1 : 0).changes);
        added += changed;
        const day = Math.floor(p.t / DAY_MS) * DAY_MS;
        if (changed) touched.set(`${id}:${day}`, [id, day]);
      }
      // The days that gained points get their rollup again (from the points: duplicates never count twice).
      const roll = this.st(
        `INSERT OR REPLACE INTO history_daily SELECT series_id, ?, MIN(v), MAX(v), SUM(v), COUNT(v), COUNT(*), SUM(backfilled)
         FROM history_points WHERE series_id = ? AND t >= ? AND t < ? GROUP BY series_id`,
      );
      for (const [id, day] of touched.values()) roll.run(day, id, day, day + DAY_MS);
      return added;
    });
  }

  async series(type: string, city: string): Promise<SeriesInfo[]> {
    const rows = this.st(
      `SELECT s.field, s.unit, s.source, s.license, s.started_at AS startedAt,
         (SELECT MIN(t) FROM history_points WHERE series_id = s.id) AS first,
         (SELECT MAX(t) FROM history_points WHERE series_id = s.id) AS last,
         (SELECT COALESCE(SUM(points), 0) FROM history_daily WHERE series_id = s.id) AS points,
         (SELECT COALESCE(SUM(backfilled), 0) FROM history_daily WHERE series_id = s.id) AS backfilled
       FROM history_series s WHERE s.type = ? AND s.city = ? ORDER BY s.id`,
    ).all(type, city);
    return rows as unknown as SeriesInfo[];
  }

  async rows(type: string, city: string, from: number, to: number, everyMs: number): Promise<Row[]> {
    if (everyMs !== DAY_MS) return this.pointRows(type, city, from, to, everyMs);
    // Whole days from the rollups, the partial days at the edges from the points.
    const [head, days, tail] = daySpans(from, to);
    const daily = this.st(
      `SELECT s.field AS field, d.day AS t, d.min AS min, d.sum / d.n AS mean, d.max AS max, d.n AS n, d.backfilled > 0 AS backfilled, s.id AS sid
       FROM history_series s JOIN history_daily d ON d.series_id = s.id
       WHERE s.type = ? AND s.city = ? AND d.day >= ? AND d.day < ? ORDER BY s.id, d.day`,
    ).all(type, city, days[0], days[1]) as unknown as (Row & { sid: number })[];
    const edges = [...(await this.pointRows(type, city, head[0], head[1], everyMs)), ...(await this.pointRows(type, city, tail[0], tail[1], everyMs))];
    const ids = this.st('SELECT field FROM history_series WHERE type = ? AND city = ? ORDER BY id').all(type, city) as { field: string }[];
    const order = new Map(ids.map((x, i) => [x.field, i]));
    return [...daily.map(({ sid: _sid, ...r }) => ({ ...r, backfilled: Boolean(r.backfilled) })), ...edges].sort(
      (a, b) => (order.get(a.field) ?? 0) - (order.get(b.field) ?? 0) || a.t - b.t,
    );
  }

  private async pointRows(type: string, city: string, from: number, to: number, everyMs: number): Promise<Row[]> {
    if (from >= to) return [];
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
    const day = Math.floor(before / DAY_MS) * DAY_MS;
    return inTransaction(this.db, () => {
      this.st('DELETE FROM history_daily WHERE series_id IN (SELECT id FROM history_series WHERE type = ?) AND day < ?').run(type, day);
      return Number(this.st('DELETE FROM history_points WHERE series_id IN (SELECT id FROM history_series WHERE type = ?) AND t < ?').run(type, day).changes);
    });
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
