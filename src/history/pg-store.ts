import pg from 'pg';
import { HISTORY_PG_DEFAULTS, type HistoryPgLimits } from '../core/config.ts';
import { MIGRATIONS, SCHEMA_VERSION_TABLE } from './migrations.ts';
import { ReadPool } from './read-pool.ts';
import { packedBuffers, packRows } from './shape.ts';
import { DAY_MS, daySpans, type HistorySize, type HistoryStore, type PointIn, type Row, type SeriesInfo, type Shaped } from './store.ts';

/** Keeps the migrations of concurrent instances apart: one applies, the others wait and find them applied. */
const MIGRATION_LOCK = 472_911;

/** Points per INSERT statement (PostgreSQL allows 65535 parameters; four per point). */
const BATCH = 5000;

/**
 * The history in PostgreSQL (DATABASE_URL), for deployments that run several instances or want
 * their database's backups. BIGINT columns come back as strings from pg; they are read as numbers.
 */
export class PgHistoryStore implements HistoryStore {
  readonly kind = 'postgres';
  readonly origin: string;
  private readonly pool: pg.Pool;
  /** Workers that shape large answers (zoned times, JSON) off the event loop; the driver itself is asynchronous. */
  private readonly shapers: ReadPool;
  private readonly ids = new Map<string, number>();
  /** The migration once it succeeded; a server that was down at start is migrated on the next use. */
  private migrated: Promise<void> | null = null;

  constructor(url: string, opts: { schema?: string; origin?: string; readWorkers?: number; limits?: HistoryPgLimits } = {}) {
    const limits = opts.limits ?? HISTORY_PG_DEFAULTS;
    this.origin = opts.origin ?? 'live';
    this.shapers = new ReadPool(opts.readWorkers ?? 1, { path: null, origin: this.origin });
    // A schema of its own (tests) goes on every connection's search_path.
    // Bounded waits: a database that stops answering makes history answers fail (503), never hang.
    this.pool = new pg.Pool({
      connectionString: url,
      max: limits.poolMax,
      connectionTimeoutMillis: limits.connectTimeoutMs,
      query_timeout: limits.queryTimeoutMs,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // An idle client losing its server must not take the process down; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  migrate(): Promise<void> {
    this.migrated ??= this.applyMigrations().catch((err: unknown) => {
      this.migrated = null;
      throw err;
    });
    return this.migrated;
  }

  private async applyMigrations(): Promise<void> {
    const c = await this.pool.connect();
    try {
      await c.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await c.query(SCHEMA_VERSION_TABLE.postgres);
      const current = Number((await c.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_version')).rows[0]?.v ?? 0);
      for (const m of MIGRATIONS.filter((x) => x.version > current)) {
        await c.query('BEGIN');
        try {
          for (const sql of m.postgres) await c.query(sql);
          await c.query('INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)', [m.version, Date.now()]);
          await c.query('COMMIT');
        } catch (err) {
          await c.query('ROLLBACK');
          throw err;
        }
      }
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      c.release();
    }
  }

  private async seriesId(p: PointIn, now: number): Promise<number> {
    const key = `${p.type}\u0000${p.city}\u0000${p.field}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const r = await this.pool.query<{ id: number }>(
      `INSERT INTO history_series (type, city, field, unit, source, license, started_at, origin) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (type, city, field, origin) DO UPDATE SET unit = EXCLUDED.unit RETURNING id`,
      [p.type, p.city, p.field, p.unit, p.source, p.license, now, this.origin],
    );
    const id = r.rows[0]!.id;
    this.ids.set(key, id);
    return id;
  }

  async insert(points: readonly PointIn[]): Promise<number> {
    await this.migrate();
    const now = Date.now();
    let added = 0;
    for (let i = 0; i < points.length; i += BATCH) {
      const chunk = points.slice(i, i + BATCH);
      const ids: number[] = [];
      for (const p of chunk) ids.push(await this.seriesId(p, now));
      // Column arrays through unnest: one statement and four parameters per batch.
      const r = await this.pool.query(
        `INSERT INTO history_points (series_id, t, v, backfilled)
         SELECT * FROM unnest($1::int[], $2::bigint[], $3::float8[], $4::boolean[]) ON CONFLICT DO NOTHING`,
        [ids, chunk.map((p) => p.t), chunk.map((p) => p.v), chunk.map((p) => p.backfilled)],
      );
      added += r.rowCount ?? 0;
      if (!r.rowCount) continue;
      // The days of this batch get their rollup again, from the points (duplicates never count twice).
      const days = new Map<string, [number, number]>();
      chunk.forEach((p, j) => {
        const day = Math.floor(p.t / DAY_MS) * DAY_MS;
        days.set(`${ids[j]}:${day}`, [ids[j]!, day]);
      });
      await this.pool.query(
        `INSERT INTO history_daily (series_id, day, min, max, sum, n, points, backfilled)
         SELECT p.series_id, d.day, MIN(p.v), MAX(p.v), SUM(p.v), COUNT(p.v), COUNT(*), COUNT(*) FILTER (WHERE p.backfilled)
         FROM unnest($1::int[], $2::bigint[]) AS d (series_id, day)
         JOIN history_points p ON p.series_id = d.series_id AND p.t >= d.day AND p.t < d.day + ${DAY_MS}
         GROUP BY p.series_id, d.day
         ON CONFLICT (series_id, day) DO UPDATE SET min = EXCLUDED.min, max = EXCLUDED.max, sum = EXCLUDED.sum, n = EXCLUDED.n,
           points = EXCLUDED.points, backfilled = EXCLUDED.backfilled`,
        [[...days.values()].map((d) => d[0]), [...days.values()].map((d) => d[1])],
      );
    }
    return added;
  }

  async series(type: string, city: string): Promise<SeriesInfo[]> {
    await this.migrate();
    const r = await this.pool.query(
      `SELECT s.field, s.unit, s.source, s.license, s.started_at AS "startedAt",
         (SELECT MIN(t) FROM history_points WHERE series_id = s.id) AS first, (SELECT MAX(t) FROM history_points WHERE series_id = s.id) AS last,
         (SELECT COALESCE(SUM(points), 0) FROM history_daily WHERE series_id = s.id) AS points,
         (SELECT COALESCE(SUM(backfilled), 0) FROM history_daily WHERE series_id = s.id) AS backfilled
       FROM history_series s WHERE s.type = $1 AND s.city = $2 AND s.origin = $3 ORDER BY s.id`,
      [type, city, this.origin],
    );
    return r.rows.map((x) => ({
      ...x,
      startedAt: Number(x.startedAt),
      first: x.first === null ? null : Number(x.first),
      last: x.last === null ? null : Number(x.last),
      points: Number(x.points),
      backfilled: Number(x.backfilled),
    }));
  }

  async answer(type: string, city: string, from: number, to: number, everyMs: number, limit: number, gapsListed: number): Promise<Shaped | null> {
    const rows = await this.rows(type, city, from, to, everyMs, limit);
    if (rows.length > limit) return null;
    const packed = packRows(rows);
    return this.shapers.run({ op: 'answer', type, city, from, to, everyMs, limit, gapsListed, packed }, packedBuffers(packed));
  }

  /** Rows of [from, to); at most `limit` + 1 per part, so a caller sees that the budget is exceeded. */
  async rows(type: string, city: string, from: number, to: number, everyMs: number, limit = 2 ** 31 - 2): Promise<Row[]> {
    await this.migrate();
    if (everyMs !== DAY_MS) return this.pointRows(type, city, from, to, everyMs, limit);
    // Whole days from the rollups, the partial days at the edges from the points.
    const [head, days, tail] = daySpans(from, to);
    const [daily, first, last, order] = await Promise.all([
      this.pool.query(
        `SELECT s.field, d.day AS t, d.min, d.sum / NULLIF(d.n, 0) AS mean, d.max, d.n, d.backfilled > 0 AS backfilled
         FROM history_series s JOIN history_daily d ON d.series_id = s.id
         WHERE s.type = $1 AND s.city = $2 AND s.origin = $3 AND d.day >= $4 AND d.day < $5 ORDER BY s.id, d.day LIMIT $6`,
        [type, city, this.origin, days[0], days[1], limit + 1],
      ),
      this.pointRows(type, city, head[0], head[1], everyMs, limit),
      this.pointRows(type, city, tail[0], tail[1], everyMs, limit),
      this.pool.query<{ field: string }>('SELECT field FROM history_series WHERE type = $1 AND city = $2 AND origin = $3 ORDER BY id', [
        type,
        city,
        this.origin,
      ]),
    ]);
    const rank = new Map(order.rows.map((x, i) => [x.field, i]));
    return [
      ...daily.rows.map((x) => ({ field: x.field, t: Number(x.t), min: x.min, mean: x.mean, max: x.max, n: Number(x.n), backfilled: x.backfilled })),
      ...first,
      ...last,
    ].sort((a, b) => (rank.get(a.field) ?? 0) - (rank.get(b.field) ?? 0) || a.t - b.t);
  }

  private async pointRows(type: string, city: string, from: number, to: number, everyMs: number, limit: number): Promise<Row[]> {
    if (from >= to) return [];
    const sql =
      everyMs > 0
        ? `SELECT s.field, (p.t / $7) * $7 AS t, MIN(p.v) AS min, AVG(p.v) AS mean, MAX(p.v) AS max, COUNT(p.v) AS n, BOOL_OR(p.backfilled) AS backfilled
           FROM history_series s JOIN history_points p ON p.series_id = s.id
           WHERE s.type = $1 AND s.city = $2 AND s.origin = $3 AND p.t >= $4 AND p.t < $5 GROUP BY s.id, 2 ORDER BY s.id, 2 LIMIT $6`
        : `SELECT s.field, p.t, p.v AS min, p.v AS mean, p.v AS max, 1 AS n, p.backfilled
           FROM history_series s JOIN history_points p ON p.series_id = s.id
           WHERE s.type = $1 AND s.city = $2 AND s.origin = $3 AND p.t >= $4 AND p.t < $5 ORDER BY s.id, p.t LIMIT $6`;
    const params = [type, city, this.origin, from, to, limit + 1];
    const r = await this.pool.query(sql, everyMs > 0 ? [...params, everyMs] : params);
    return r.rows.map((x) => ({
      field: x.field,
      t: Number(x.t),
      min: x.min,
      mean: x.mean === null ? null : Number(x.mean),
      max: x.max,
      n: Number(x.n),
      backfilled: x.backfilled,
    }));
  }

  async at(type: string, city: string, t: number) {
    await this.migrate();
    const r = await this.pool.query(
      `SELECT s.field, s.unit, p.t, p.v, s.source, s.license FROM history_series s
       CROSS JOIN LATERAL (SELECT t, v FROM history_points WHERE series_id = s.id AND t <= $3 ORDER BY t DESC LIMIT 1) p
       WHERE s.type = $1 AND s.city = $2 AND s.origin = $4 ORDER BY s.id`,
      [type, city, t, this.origin],
    );
    return r.rows.map((x) => ({ ...x, t: Number(x.t) }));
  }

  async cities(type: string): Promise<string[]> {
    await this.migrate();
    return (
      await this.pool.query<{ city: string }>('SELECT DISTINCT city FROM history_series WHERE type = $1 AND origin = $2 ORDER BY city', [type, this.origin])
    ).rows.map((r) => r.city);
  }

  async startedAt(type: string, city?: string): Promise<number | null> {
    await this.migrate();
    const s = (
      city === undefined
        ? await this.pool.query<{ s: string | null }>('SELECT MIN(started_at) AS s FROM history_series WHERE type = $1 AND origin = $2', [type, this.origin])
        : await this.pool.query<{ s: string | null }>('SELECT MIN(started_at) AS s FROM history_series WHERE type = $1 AND city = $2 AND origin = $3', [
            type,
            city,
            this.origin,
          ])
    ).rows[0]?.s;
    return s === null || s === undefined ? null : Number(s);
  }

  async prune(type: string, before: number): Promise<number> {
    await this.migrate();
    const day = Math.floor(before / DAY_MS) * DAY_MS;
    const series = 'SELECT id FROM history_series WHERE type = $1 AND origin = $2';
    await this.pool.query(`DELETE FROM history_daily WHERE series_id IN (${series}) AND day < $3`, [type, this.origin, day]);
    const r = await this.pool.query(`DELETE FROM history_points WHERE series_id IN (${series}) AND t < $3`, [type, this.origin, day]);
    return r.rowCount ?? 0;
  }

  async size(): Promise<HistorySize> {
    await this.migrate();
    const r = await this.pool.query<{ series: string; bytes: string }>(
      `SELECT (SELECT COUNT(*) FROM history_series) AS series,
         pg_total_relation_size('history_points') + pg_total_relation_size('history_daily') + pg_total_relation_size('history_series') AS bytes`,
    );
    return { series: Number(r.rows[0]!.series), bytes: Number(r.rows[0]!.bytes) };
  }

  async close(): Promise<void> {
    await this.shapers.close();
    await this.pool.end();
  }
}
