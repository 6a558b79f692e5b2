import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { inTransaction, openSqlite, type DatabaseSync, type StatementSync } from '../store/sqlite-file.ts';
import { MIGRATIONS, SCHEMA_VERSION_TABLE } from './migrations.ts';
import type { CallRequest } from './read-protocol.ts';
import { ReadPool } from './read-pool.ts';
import { answerOf } from './shape.ts';
import { SqliteReads, type AtValue } from './sqlite-reads.ts';
import { DAY_MS, type HistorySize, type HistoryStore, type PointIn, type Row, type SeriesInfo, type Shaped } from './store.ts';

/** The history in one embedded SQLite file (HISTORY_PATH; `:memory:` for tests): zero set-up. */
export class SqliteHistoryStore implements HistoryStore {
  readonly kind = 'sqlite';
  private readonly db: DatabaseSync;
  private readonly ids = new Map<string, number>();
  private readonly stmts = new Map<string, StatementSync>();

  /** Reads in worker threads (a file), or on this connection (`:memory:`). */
  private readonly pool: ReadPool | null;
  private readonly local: SqliteReads | null;
  private direct: SqliteReads | null = null;
  readonly origin: string;

  private readonly path: string;
  constructor(path: string, opts: { origin?: string; readWorkers?: number } = {}) {
    this.path = path;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = openSqlite(path);
    this.origin = opts.origin ?? 'live';
    const memory = path === ':memory:';
    this.pool = memory ? null : new ReadPool(opts.readWorkers ?? 1, { path, origin: this.origin });
    this.local = memory ? new SqliteReads(this.db, this.origin) : null;
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
      `INSERT INTO history_series (type, city, field, unit, source, license, started_at, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (type, city, field, origin) DO UPDATE SET unit = excluded.unit RETURNING id`,
    ).get(p.type, p.city, p.field, p.unit, p.source, p.license, now, this.origin) as { id: number };
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

  /** A read, in a worker for a file, on this connection for `:memory:` (which no other connection can open). */
  private call<T>(method: CallRequest['method'], ...args: (string | number)[]): Promise<T> {
    if (this.pool) return this.pool.run<T>({ op: 'call', method, args });
    const r = this.local!;
    const [a, b, c] = args;
    const value =
      method === 'series'
        ? r.series(String(a), String(b))
        : method === 'at'
          ? r.at(String(a), String(b), Number(c))
          : method === 'cities'
            ? r.cities(String(a))
            : method === 'startedAt'
              ? r.startedAt(String(a), b === undefined ? undefined : String(b))
              : r.size();
    return Promise.resolve(value as T);
  }

  series(type: string, city: string): Promise<SeriesInfo[]> {
    return this.call('series', type, city);
  }

  async rows(type: string, city: string, from: number, to: number, everyMs: number): Promise<Row[]> {
    // The bench and the tests' direct reads; answers go through answer(), off this thread.
    this.direct ??= new SqliteReads(this.db, this.origin);
    return this.direct.rows(type, city, from, to, everyMs);
  }

  answer(type: string, city: string, from: number, to: number, everyMs: number, limit: number, gapsListed: number): Promise<Shaped | null> {
    if (this.pool) return this.pool.run({ op: 'answer', type, city, from, to, everyMs, limit, gapsListed });
    return Promise.resolve(answerOf(this.local!.rows(type, city, from, to, everyMs, limit), everyMs, limit, gapsListed));
  }

  at(type: string, city: string, t: number): Promise<AtValue[]> {
    return this.call('at', type, city, t);
  }

  cities(type: string): Promise<string[]> {
    return this.call('cities', type);
  }

  startedAt(type: string, city?: string): Promise<number | null> {
    return city === undefined ? this.call('startedAt', type) : this.call('startedAt', type, city);
  }

  async prune(type: string, before: number): Promise<number> {
    const day = Math.floor(before / DAY_MS) * DAY_MS;
    return inTransaction(this.db, () => {
      const series = 'SELECT id FROM history_series WHERE type = ? AND origin = ?';
      this.st(`DELETE FROM history_daily WHERE series_id IN (${series}) AND day < ?`).run(type, this.origin, day);
      return Number(this.st(`DELETE FROM history_points WHERE series_id IN (${series}) AND t < ?`).run(type, this.origin, day).changes);
    });
  }

  /** On this thread: two cheap reads that health makes, which must not wait behind answers in the workers. */
  async size(): Promise<HistorySize> {
    this.direct ??= new SqliteReads(this.db, this.origin);
    return this.direct.size();
  }

  async close(): Promise<void> {
    await this.pool?.close();
    if (this.db.isOpen) this.db.close();
  }

  /** The file (for the bench's size figures). */
  get file(): string {
    return this.path;
  }
}
