/**
 * JSON against CSV against GeoJSON for the same list (issue 30): requests per second and the
 * server's peak RSS, each format in a fresh server process (so each peak is that format's own).
 * Two lists: the largest demo list that offers all three formats, as recorded, and a large one
 * (fuel prices for Frankfurt with BENCH_ROWS stations, default 6000 (the source caps its answer at 2 MiB), from the fake Tankerkönig;
 * above 2000 rows CSV and GeoJSON are streamed). Every request reads the whole list (`limit=all`).
 * The server's event-loop delay under the load (p99 and max, perf_hooks) says whether a large
 * answer holds the loop, so that a small request would wait behind it.
 * Run: node bench/formats.ts   Knobs: BENCH_ROWS, BENCH_DURATION (s, default 10),
 * BENCH_CONNECTIONS (default 16), BENCH_LISTS (`large` measures only the large list).
 * Load generator: wrk when installed, else autocannon.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AUTOCANNON_WARNING, load, pickGenerator } from './load.ts';
import { registerStations } from './stations-list.ts';
import type { Format } from '../src/core/formats.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 6000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const FUEL = '/api/v1/cities/frankfurt-am-main/fuel-prices?fuel=diesel';

interface Ready {
  url: string;
  /** The largest demo list offering every format: its example path and item count. */
  largest: { path: string; items: number };
}

/** Child: the demo (rate limit off), with Tankerkönig answering `rows` stations when rows > 0. */
async function serve(rows: number) {
  process.env.RATE_LIMIT_ENABLED = 'false';
  process.env.LOG_LEVEL = 'silent';
  const { startDemo } = await import('../scripts/demo.ts');
  const { examplePath } = await import('../src/core/data-type.ts');
  const { formatsOf } = await import('../src/core/formats.ts');
  const demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
  if (rows > 0) {
    registerStations(demo.fake, rows);
  }
  let largest = { path: '', items: -1 };
  for (const dt of demo.built.rt.catalog.all) {
    if (!dt.list || formatsOf(dt).length < 3) continue;
    const path = examplePath(dt);
    const data = ((await (await fetch(demo.url + path)).json()) as { data: unknown }).data;
    const items = Array.isArray(data) ? data.length : typeof dt.list === 'string' ? ((data as Record<string, unknown[]> | null)?.[dt.list]?.length ?? 0) : 0;
    if (items > largest.items) largest = { path, items };
  }
  process.send!({ url: demo.url, largest } satisfies Ready);
  // The peak while the load runs, sampled (the process's own maxRSS would be that of the demo's start).
  let peak = 0;
  setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10).unref();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (m) => {
    const rss = process.memoryUsage.rss();
    const loop = { loopP99Ms: delay.percentile(99) / 1e6, loopMaxMs: delay.max / 1e6 };
    if (m === 'reset') {
      peak = rss;
      delay.reset();
    }
    process.send!({ rssMb: rss / 2 ** 20, peakMb: Math.max(peak, rss) / 2 ** 20, ...loop } satisfies Sample);
  });
}

function child(rows: number): Promise<{ proc: ChildProcess; ready: Ready }> {
  const proc = fork(new URL(import.meta.url).pathname, ['serve', String(rows)], {
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', (ready) => resolve({ proc, ready: ready as Ready }));
    proc.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

/** The server's RSS now and its peak, and its event-loop delay (p99, max), since the last reset. */
interface Sample {
  rssMb: number;
  peakMb: number;
  loopP99Ms: number;
  loopMaxMs: number;
}

/** `reset` starts a new peak at the current RSS and a new delay histogram; `rss` reads them. */
function rssOf(proc: ChildProcess, what: 'reset' | 'rss'): Promise<Sample> {
  return new Promise((resolve) => {
    proc.once('message', (m) => resolve(m as Sample));
    proc.send(what);
  });
}

const withQuery = (path: string, q: string) => `${path}${path.includes('?') ? '&' : '?'}${q}`;

async function main() {
  const gen = pickGenerator();
  if (gen === 'autocannon') console.warn(AUTOCANNON_WARNING);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GB; Node ${process.version}; ${gen}, ${CONNECTIONS} connections, ${DURATION} s per run`,
  );
  const lists: { name: string; rows: number; path: (r: Ready) => string }[] = [
    ...(process.env.BENCH_LISTS === 'large' ? [] : [{ name: 'largest demo list', rows: 0, path: (r: Ready) => r.largest.path }]),
    { name: `fuel prices, ${ROWS} stations`, rows: ROWS, path: () => FUEL },
  ];
  console.log('| list | items | format | body KB | req/s | p50 ms | p99 ms | RSS before load MB | RSS peak under load MB | loop delay p99 / max ms |');
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const list of lists) {
    for (const f of ['json', 'csv', 'geojson'] satisfies Format[]) {
      const { proc, ready } = await child(list.rows);
      try {
        const url = ready.url + withQuery(list.path(ready), `limit=all&format=${f}`);
        const warm = await fetch(url);
        const bytes = (await warm.arrayBuffer()).byteLength;
        if (warm.status !== 200) throw new Error(`${url}: ${warm.status}`);
        const items = list.rows || ready.largest.items;
        const before = await rssOf(proc, 'reset');
        const r = await load(gen, url, CONNECTIONS, DURATION);
        const after = await rssOf(proc, 'rss');
        const name = list.rows ? list.name : `${list.name} (${ready.largest.path.split('?')[0]})`;
        console.log(
          `| ${name} | ${items} | ${f} | ${(bytes / 1024).toFixed(1)} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${before.rssMb.toFixed(0)} | ${after.peakMb.toFixed(0)} | ${after.loopP99Ms.toFixed(1)} / ${after.loopMaxMs.toFixed(1)} |` +
            (r.errors ? ` (${r.errors} errors)` : ''),
        );
      } finally {
        proc.kill();
      }
    }
  }
}

if (process.argv[2] === 'serve') await serve(Number(process.argv[3] ?? 0));
else await main();
