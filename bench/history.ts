/**
 * `node bench/history.ts`: the history stores under a year of 15-minute values.
 *
 * The full shape is 84 cities x every recordable type's fields (catalog declarations) x 35,040
 * quarter hours. By default a proportional subset is generated (BENCH_HISTORY_CITIES cities, all
 * types and fields) and insert time and size are extrapolated to 84 cities, labelled as such; the
 * query figures need no extrapolation (a one-city, one-type query reads one city's year whatever
 * the table holds, through the (series, t) key). Then p50/p99 of a one-year query downsampled to
 * 1d for one city and one type (what the endpoint reads: series extent and counts, and the rows), and the recorder's cost per recorded value against one core.
 * PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432/test) runs in a schema of its own, dropped after.
 * Knobs: BENCH_HISTORY_CITIES (2), BENCH_HISTORY_QUERIES (200), BENCH_HISTORY_STORES (sqlite,postgres),
 * BENCH_HISTORY_VACUUM=0 (query PostgreSQL right after the bulk load, before VACUUM ANALYZE).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { CATALOG } from '../src/catalog/index.ts';
import { CITIES } from '../src/cities/register.ts';
import { SqliteHistoryStore } from '../src/history/sqlite-store.ts';
import { PgHistoryStore } from '../src/history/pg-store.ts';
import type { HistoryStore, PointIn } from '../src/history/store.ts';
import { Recorder } from '../src/history/recorder.ts';
import { cadenceSeconds } from '../src/history/refresh-job.ts';
import { recordableTypes } from '../src/services/history-answers.ts';
import { SqliteStore } from '../src/store/sqlite.ts';

const YEAR_START = Date.UTC(2025, 10, 1);
const QUARTERS = 365 * 96;
const SUBSET_CITIES = Number(process.env.BENCH_HISTORY_CITIES ?? 2);
const QUERIES = Number(process.env.BENCH_HISTORY_QUERIES ?? 200);
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 20_000;
/** Which stores to measure (comma-separated): sqlite, postgres. */
const STORES = (process.env.BENCH_HISTORY_STORES ?? 'sqlite,postgres').split(',');

const types = recordableTypes(CATALOG);
const fieldsTotal = types.reduce((n, dt) => n + dt.history!.fields.length, 0);
const cities = CITIES.slice(0, SUBSET_CITIES);
const fullPoints = CITIES.length * fieldsTotal * QUARTERS;

/** One city's year of one type, field after field: a daily curve plus noise, as a recorder would have kept it. */
function* points(): Generator<PointIn[]> {
  let batch: PointIn[] = [];
  for (const city of cities)
    for (const dt of types)
      for (const [i, f] of dt.history!.fields.entries())
        for (let q = 0; q < QUARTERS; q++) {
          const v = 100 + 50 * Math.sin((q / 96) * 2 * Math.PI + i) + Math.random() * 10;
          batch.push({
            type: dt.type,
            city: city.slug,
            field: f.name,
            unit: f.unit,
            t: YEAR_START + q * 900_000,
            v,
            source: 'bench',
            license: 'bench',
            backfilled: false,
          });
          if (batch.length === BATCH) {
            yield batch;
            batch = [];
          }
        }
  if (batch.length) yield batch;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(name: string, store: HistoryStore, bytes: () => Promise<number>, settle: () => Promise<void> = async () => {}) {
  await store.migrate();
  let n = 0;
  const t0 = performance.now();
  for (const batch of points()) n += await store.insert(batch);
  const insertS = (performance.now() - t0) / 1000;
  await settle();
  const size = await bytes();
  const wide = types.reduce((a, b) => (b.history!.fields.length > a.history!.fields.length ? b : a));
  // What the endpoint asks: the series' extent and counts, and the rows.
  const query = async (type: string, city: string) => {
    const s = performance.now();
    const [, rows] = await Promise.all([store.series(type, city), store.rows(type, city, YEAR_START, YEAR_START + QUARTERS * 900_000, 86_400_000)]);
    if (!rows.length) throw new Error('empty answer');
    return performance.now() - s;
  };
  const random: number[] = [];
  const widest: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const city = cities[i % cities.length]!.slug;
    random.push(await query(types[i % types.length]!.type, city));
    widest.push(await query(wide.type, city));
  }
  random.sort((a, b) => a - b);
  widest.sort((a, b) => a - b);
  const perMillion = size / (n / 1e6);
  console.log(
    JSON.stringify({
      store: name,
      subset: { cities: cities.length, types: types.length, fields: fieldsTotal, points: n },
      insert: { seconds: +insertS.toFixed(1), points_per_s: Math.round(n / insertS) },
      size: { bytes: size, mb_per_million_points: +(perMillion / 1e6).toFixed(1) },
      extrapolated_84_cities: {
        points: fullPoints,
        insert_minutes: +(fullPoints / (n / insertS) / 60).toFixed(0),
        gb: +((perMillion * fullPoints) / 1e15).toFixed(1),
      },
      query_1y_1d_ms: {
        any_type: { p50: +pct(random, 50).toFixed(1), p99: +pct(random, 99).toFixed(1) },
        widest_type: { type: wide.type, fields: wide.history!.fields.length, p50: +pct(widest, 50).toFixed(1), p99: +pct(widest, 99).toFixed(1) },
      },
    }),
  );
}

/** CPU per recorded value (summary, fields, lock, one-row insert) and the share of one core at every type's cadence for 84 cities. */
async function recorderOverhead() {
  const dir = mkdtempSync(join(tmpdir(), 'history-bench-'));
  const store = new SqliteHistoryStore(join(dir, 'rec.sqlite'));
  await store.migrate();
  const lock = new SqliteStore(':memory:');
  const recorder = new Recorder(store, lock, { warn: () => undefined, info: () => undefined });
  const dt = CATALOG.byType.get('weather')!;
  const data = { temperature_c: 3.2, relative_humidity_pct: 80, wind_speed_kmh: 12, precipitation_mm_60min: 0.1 };
  const n = 5000;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    recorder.fresh(
      {
        type: dt.type,
        history: dt.history!,
        summarise: null,
        city: CITIES[i % CITIES.length]!,
        asOf: new Date(YEAR_START + i * 600_000).toISOString(),
        fetchedAt: Date.now(),
        source: 'bench',
        license: 'bench',
        data,
      },
      null,
    );
    if (i % 100 === 99) await recorder.settled();
  }
  await recorder.settled();
  const cpu = process.cpuUsage(cpu0);
  const perValueMs = (cpu.user + cpu.system) / 1000 / n;
  const valuesPerS = types.reduce((sum, t) => sum + CITIES.length / cadenceSeconds(t), 0);
  console.log(
    JSON.stringify({
      recorder: {
        cpu_ms_per_value: +perValueMs.toFixed(3),
        values_per_s_at_cadence_84_cities: +valuesPerS.toFixed(1),
        share_of_one_core_pct: +((perValueMs * valuesPerS) / 10).toFixed(2),
      },
    }),
  );
  await store.close();
  await lock.close();
  rmSync(dir, { recursive: true, force: true });
}

async function main() {
  console.log(
    `# ${types.length} recordable types, ${fieldsTotal} fields per city; full shape ${fullPoints.toLocaleString('en')} points; measuring ${cities.length} cities`,
  );
  if (STORES.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'history-bench-'));
    const file = join(dir, 'history.sqlite');
    const sqlite = new SqliteHistoryStore(file);
    await measure('sqlite', sqlite, async () => statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0));
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (!STORES.includes('postgres')) return recorderOverhead();

  const schema = `hbench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch {
    console.log('# PostgreSQL not reachable: skipped');
    return recorderOverhead();
  }
  await admin.query(`CREATE SCHEMA ${schema}`);
  const store = new PgHistoryStore(PG_URL, { schema });
  try {
    // A year of trickled inserts leaves the tables vacuumed and analysed (autovacuum); a bulk load does not until
    // autovacuum catches up, and until then index-only scans visit the heap. BENCH_HISTORY_VACUUM=0 measures that state.
    const vacuum = async () => {
      if (process.env.BENCH_HISTORY_VACUUM === '0') return;
      for (const table of ['history_points', 'history_daily', 'history_series']) await admin.query(`VACUUM ANALYZE ${schema}.${table}`);
    };
    await measure('postgres', store, async () => (await store.size()).bytes, vacuum);
  } finally {
    await store.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
  await recorderOverhead();
}

await main();
