/**
 * Maximal history queries in parallel (issue 37): a temp SQLite history with 161,280 points (a
 * Berlin weather year of quarter hours, four fields), 8 queries of the longest span every=15m
 * allows (10,000 buckets per field, each answer 39,936 rows, about 4.5 MB), different ranges so
 * none is served from another's cache, while /api/v1/health is polled every 20 ms. Measures
 * health latency and event-loop delay (p99) under that load, and both idle first as the machine's
 * floor. `node bench/attack/probes/history-max.ts` runs it alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startApp } from '../../../test/helpers/app.ts';
import { seedHistory } from '../../../test/helpers/history-seed.ts';
import type { AttackRow, Probe } from '../row.ts';

const QUERIES = 8;
const IDLE_MS = 10_000;

function download(url: string): Promise<{ status: number; bytes: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - t0 }));
    })
      .on('error', reject)
      .end();
  });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

/** Health polled until `done` resolves; its latencies and the event-loop delay meanwhile. */
async function pollHealth(url: string, done: Promise<unknown>) {
  const eld = monitorEventLoopDelay({ resolution: 10 });
  eld.enable();
  let running = true;
  void done.finally(() => (running = false));
  const health: number[] = [];
  while (running) {
    health.push((await download(`${url}/api/v1/health`)).ms);
    await new Promise((r) => setTimeout(r, 20));
  }
  eld.disable();
  return { health, eldP99: eld.percentile(99) / 1e6, eldMax: eld.max / 1e6 };
}

export const probe: Probe = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-attack-history-'));
  const file = join(dir, 'history.sqlite');
  await seedHistory(file, { type: 'weather', city: 'berlin', from: Date.UTC(2026, 0, 1), count: 420 * 96 });
  const app = await startApp({ HISTORY_PATH: file });
  try {
    const idle = await pollHealth(app.url, new Promise((r) => setTimeout(r, IDLE_MS)));
    const day = (d: number) => new Date(Date.UTC(2026, 7, 19 + d)).toISOString().slice(0, 10);
    const t0 = performance.now();
    const queries = Promise.all(
      Array.from({ length: QUERIES }, (_, k) => download(`${app.url}/api/v1/cities/berlin/weather/history?every=15m&from=${day(k)}&to=${day(k + 104)}`)),
    );
    const load = await pollHealth(app.url, queries);
    const answers = await queries;
    const wall = performance.now() - t0;
    const ok = answers.every((a) => a.status === 200);
    const p90 = pct(load.health, 0.9);
    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    const rows: AttackRow[] = [
      {
        probe: 'history-max',
        measure: `${QUERIES} maximal queries in parallel (every=15m, 104 days, 4 fields): all answered, slowest`,
        value: `${f(Math.max(...answers.map((a) => a.ms)))} (${(answers[0]!.bytes / 1e6).toFixed(1)} MB each, ${f(wall)} wall)`,
        verdict: ok ? 'all 200: held' : `statuses ${answers.map((a) => a.status).join(',')}: FAILED`,
      },
      { probe: 'history-max', measure: 'health latency under that load, p90', value: f(p90), verdict: `≤ 100 ms: ${p90 <= 100 ? 'held' : 'FAILED'}` },
      {
        probe: 'history-max',
        measure: 'health latency under that load, max',
        value: f(Math.max(...load.health)),
        verdict: `idle max ${f(Math.max(...idle.health))}`,
      },
      {
        probe: 'history-max',
        measure: 'event-loop delay p99 under that load',
        value: f(load.eldP99),
        verdict: `idle p99 ${f(idle.eldP99)}; max ${f(load.eldMax)} (idle ${f(idle.eldMax)})`,
      },
    ];
    return rows;
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) console.table(await probe());
