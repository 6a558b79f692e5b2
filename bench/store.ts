/**
 * The embedded store's own path (`npm run bench:store`): operations per second and CPU µs per
 * operation of SqliteStore on a file, as the cache and the locks use it: a 2 KB cache entry set and
 * read back, a lock taken and released, a counter raised, a key scan. One process, no HTTP, so
 * the figure is the SQLite binding's and the store's alone. Knob: BENCH_STORE_OPS (default 50000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../src/store/sqlite.ts';

const OPS = Number(process.env.BENCH_STORE_OPS ?? 50_000);
const KEYS = 1000;
const value = 'x'.repeat(2048);

interface Row {
  op: string;
  ops_per_s: number;
  cpu_us_per_op: number;
}

async function measure(op: string, n: number, step: (i: number) => Promise<unknown>): Promise<Row> {
  for (let i = 0; i < Math.min(n, 2000); i++) await step(i); // warm-up: statements prepared, pages cached
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await step(i);
  const ns = Number(process.hrtime.bigint() - t0);
  const cpu = process.cpuUsage(cpu0);
  return { op, ops_per_s: Math.round(n / (ns / 1e9)), cpu_us_per_op: Number(((cpu.user + cpu.system) / n).toFixed(2)) };
}

const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-store-bench-'));
const store = new SqliteStore(join(dir, 'store.sqlite'));
try {
  const rows = [
    await measure('set (2 KB entry)', OPS, (i) => store.set(`cache:k${i % KEYS}`, value, 600_000)),
    await measure('get (hit)', OPS, (i) => store.get(`cache:k${i % KEYS}`)),
    await measure('get (miss)', OPS, (i) => store.get(`cache:none${i}`)),
    await measure('setIfAbsent + delIfEquals (lock)', OPS / 2, async (i) => {
      await store.setIfAbsent(`lock:k${i % KEYS}`, 't', 15_000);
      await store.delIfEquals(`lock:k${i % KEYS}`, 't');
    }),
    await measure('incr (rate counter)', OPS, (i) => store.incr(`rate:c${i % 50}`, 60_000)),
    await measure('keys (prefix of 1000)', 500, () => store.keys('cache:k')),
  ];
  console.log(`node ${process.version}, ${OPS} operations per row`);
  console.table(rows);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
