/**
 * GTFS-Realtime benchmark: a synthetic feed of realistic size (190k trip updates, ~3M stop-time
 * updates, >= 70 MB, encoded with the official bindings) and a matching static index.
 *   1. the real poller (HTTP fetch + decode + index + store writes) as the app runs it (the app
 *      in a child of the bench, the poll in its own capped-heap process unless
 *      BENCH_POLL_PROCESS=inline): decode+index time, write time, peak RSS of both processes;
 *   2. trip-detail latency under load (autocannon against the running app, p50/p99), plus
 *      departures of the busiest city: its first page under load and the whole list once.
 * Run: node bench/gtfs.ts
 */
import { createReadStream, mkdtempSync, openSync, writeSync, closeSync, statSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { inTransaction, openSqlite } from '../src/store/sqlite-file.ts';
import autocannon from 'autocannon';
import { encodeAlertChunk, encodeHeaderChunk, encodeTripChunk, type GenStop } from '../test/helpers/gtfs-feed.ts';
import { privateStores } from '../test/helpers/stores.ts';
import { CITIES } from '../src/cities/register.ts';
import { cityOfStop } from '../src/sources/gtfs/city-stops.ts';
import { STATIC_INDEXES, STATIC_SCHEMA } from '../src/sources/gtfs/static-index.ts';
import { berlinDateOf, serviceDayRefMs } from '../src/sources/gtfs/service-time.ts';

/** What the poller child prints: one line of JSON (see pollerChild). */
interface PollerReport {
  mode: string;
  baseline_rss_mb: number;
  polls: {
    decode_index_ms: number;
    write_ms: number;
    boards_ms: number;
    writes: number;
    total_ms: number;
    poller_peak_rss_mb: number;
    app_peak_rss_mb: number;
    status: { stop_calls_in_cities: number };
  }[];
}

/** The parts of an API envelope the bench reads. */
interface Envelope {
  meta: { source_status: string };
  data: { unresolved?: boolean; length?: number } | null;
}

const TRIPS = Number(process.env.BENCH_TRIPS ?? 190_000);
const STOPS = 400_000;
const ROUTES = 20_000;
const ALERTS = 2_000;
/**
 * Polls of the same feed. The poll child ends with each poll unless BENCH_POLL_CHILD_KEEP=true
 * (GTFS_RT_POLL_CHILD_KEEP), so by default every poll is cold; kept, the first is cold and the
 * rest warm (what a long-running poller carries shows from the second on).
 */
const POLLS = Number(process.env.BENCH_POLLS ?? 4);
/** Rounds of trip detail under 10 connections (the VM's throughput drifts between minutes). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const tripId = (i: number) => String(1_800_000_000 + i);
const stopsOfTrip = (i: number) => 8 + (i % 17); // 8..24, mean 16
const stopAt = (i: number, k: number) => (i * 7919 + k * 104_729) % STOPS;

/** Deterministic pseudo-random in [0, 1). */
function rand(seed: number): number {
  const x = Math.sin(seed * 12.9898) * 43758.5453;
  return x - Math.floor(x);
}

function buildStatic(path: string) {
  const db = openSqlite(path, { bulkLoad: true });
  db.exec(STATIC_SCHEMA);
  const ins = {
    stop: db.prepare('INSERT INTO stops VALUES (?, ?, ?, ?, ?)'),
    route: db.prepare('INSERT INTO routes VALUES (?, ?, ?, ?, ?)'),
    trip: db.prepare('INSERT INTO trips VALUES (?, ?, ?, ?, ?)'),
    st: db.prepare('INSERT INTO stop_times VALUES (?, ?, ?, ?, ?)'),
  };
  const nowS = Math.round((Date.now() - serviceDayRefMs(berlinDateOf(Date.now()))) / 1000);
  inTransaction(db, () => {
    for (let s = 0; s < STOPS; s++) {
      // About a third of the stops lie in the register cities, the rest anywhere in Germany.
      let lat: number, lon: number;
      if (s % 3 === 0) {
        const c = CITIES[s % CITIES.length]!; // the register is never empty, so the modulo is in range
        lat = c.lat + (rand(s) - 0.5) * 0.1;
        lon = c.lon + (rand(s + 0.5) - 0.5) * 0.14;
      } else {
        lat = 47.3 + rand(s) * 7.7;
        lon = 5.9 + rand(s + 0.5) * 9.1;
      }
      const id = String(100_000 + s);
      ins.stop.run(id, `Haltestelle ${s}`, lat, lon, cityOfStop(id, lat, lon));
    }
    for (let r = 0; r < ROUTES; r++) ins.route.run(`r${r}`, String(r % 300), null, 700, 'a1');
    for (let i = 0; i < TRIPS; i++) {
      ins.trip.run(tripId(i), `r${i % ROUTES}`, 's1', `Ziel ${i % 500}`, null);
      // Trips start within an hour around now, so departures have something to show.
      const start = nowS - 3600 + (i % 120) * 60;
      for (let k = 1; k <= stopsOfTrip(i); k++) ins.st.run(tripId(i), k, String(100_000 + stopAt(i, k)), start + k * 120, start + k * 120 + 30);
    }
    const meta = db.prepare('INSERT INTO meta VALUES (?, ?)');
    for (const [k, v] of Object.entries({
      built_at: new Date().toISOString(),
      feed_url: 'synthetic',
      stops: STOPS,
      routes: ROUTES,
      trips: TRIPS,
      stop_times: 0,
    }))
      meta.run(k, String(v));
  });
  db.exec(STATIC_INDEXES);
  db.close();
}

function buildFeed(path: string): { bytes: number; stus: number } {
  const fd = openSync(path, 'w');
  let bytes = 0,
    stus = 0;
  const w = (b: Uint8Array) => {
    writeSync(fd, b);
    bytes += b.length;
  };
  const nowS = Math.floor(Date.now() / 1000);
  w(encodeHeaderChunk(nowS));
  const day = berlinDateOf(Date.now());
  for (let i = 0; i < TRIPS; i++) {
    const stops: GenStop[] = [];
    for (let k = 1; k <= stopsOfTrip(i); k++) {
      const d = ((i + k) % 11) * 60 - 60;
      stops.push({ seq: k, stop_id: String(100_000 + stopAt(i, k)), arr_delay: d, dep_delay: d });
    }
    stus += stops.length;
    w(encodeTripChunk({ trip_id: tripId(i), route_id: '', start_date: day, stops }, `${i}`));
  }
  for (let a = 0; a < ALERTS; a++) w(encodeAlertChunk(`alert-${a}`, `Baustelle ${a}: Umleitung der Linie ${a % 300}`));
  closeSync(fd);
  return { bytes, stus };
}

/**
 * The real poller as the app runs it: the app process forks the poll child (capped heap,
 * GTFS_RT_POLL_PROCESS=child) and stays small; POLLS polls, the first cold, the others warm.
 */
async function pollerChild(feedUrl: string, storePath: string) {
  const { loadAppConfig } = await import('../src/startup.ts');
  const { buildApp } = await import('../src/app.ts');
  const { SqliteStore } = await import('../src/store/sqlite.ts');
  const { runGtfsRtPoll } = await import('../src/jobs/gtfs/rt-poller.ts');
  const { stopGtfsChildren } = await import('../src/jobs/gtfs/child-process.ts');
  const mode = process.env.BENCH_POLL_PROCESS ?? 'child';
  const config = loadAppConfig({
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    GTFS_RT_BASE_URL: feedUrl,
    ...privateStores(),
    STORE_PATH: storePath,
    GTFS_RT_POLL_PROCESS: mode,
    GTFS_RT_POLL_CHILD_KEEP: process.env.BENCH_POLL_CHILD_KEEP ?? 'false',
  });
  const app = await buildApp(config, { store: new SqliteStore(storePath), logger: false });
  const baselineMb = process.resourceUsage().maxRSS / 1024;
  const polls = [];
  for (let i = 0; i < POLLS; i++) {
    const started = performance.now();
    const r = (await runGtfsRtPoll(app.rt, { ttlMs: 3600_000 })) as Awaited<ReturnType<typeof runGtfsRtPoll>> & { peak_rss_mb?: number };
    const appMb = Math.round(process.resourceUsage().maxRSS / 1024);
    polls.push({ ...r, total_ms: Math.round(performance.now() - started), poller_peak_rss_mb: r.peak_rss_mb ?? appMb, app_peak_rss_mb: appMb });
  }
  stopGtfsChildren();
  await app.close();
  process.stdout.write(JSON.stringify({ mode, baseline_rss_mb: Math.round(baselineMb), polls }) + '\n');
}

/** The app serving the stored data, in its own process so the load generator does not share its CPU. */
async function serverChild(storePath: string) {
  const { loadAppConfig } = await import('../src/startup.ts');
  const { buildApp } = await import('../src/app.ts');
  const { SqliteStore } = await import('../src/store/sqlite.ts');
  const config = loadAppConfig({ LOG_LEVEL: 'silent', JOBS_ENABLED: 'false', ...privateStores(), STORE_PATH: storePath });
  const app = await buildApp(config, { store: new SqliteStore(storePath), logger: false });
  await app.app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}\n`);
}

function spawnSelf(args: string[], onLine: (line: string) => void): ReturnType<typeof spawn> {
  const p = spawn(process.execPath, [new URL(import.meta.url).pathname, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  p.stdout!.on('data', (c) => {
    buf += c;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      onLine(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
  return p;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'gtfs-bench-'));
  const storePath = join(dir, 'store.sqlite');
  const feedPath = join(dir, 'feed.pb');
  let t = performance.now();
  buildStatic(join(dir, 'gtfs-static.sqlite'));
  console.log(`static index: ${STOPS} stops, ${TRIPS} trips built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  const feed = buildFeed(feedPath);
  console.log(
    `feed: ${(feed.bytes / 1048576).toFixed(1)} MB, ${TRIPS} trip updates, ${feed.stus} stop-time updates, ${ALERTS} alerts (${((performance.now() - t) / 1000).toFixed(1)} s)`,
  );

  const server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(statSync(feedPath).size) });
    createReadStream(feedPath).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realtime-free.pb`;

  const result = await new Promise<PollerReport>((resolve, reject) => {
    let out: PollerReport | null = null;
    spawnSelf(['--poller', feedUrl, storePath], (line) => {
      out = JSON.parse(line) as PollerReport;
    }).on('exit', (code) => (code === 0 && out ? resolve(out) : reject(new Error(`poller child exited ${code}`))));
  });
  server.close();
  console.log(`app process: RSS before polling ${result.baseline_rss_mb} MB (full catalog loaded); poll mode ${result.mode}`);
  for (const [i, r] of result.polls.entries()) {
    console.log(
      `poll ${i + 1} (${i === 0 || process.env.BENCH_POLL_CHILD_KEEP !== 'true' ? 'cold' : 'warm'}): decode+index ${r.decode_index_ms} ms, store writes ${r.write_ms} ms incl. departure boards ${r.boards_ms} ms (${r.writes} keys), total incl. HTTP ${r.total_ms} ms; peak RSS so far: poller ${r.poller_peak_rss_mb} MB, app ${r.app_peak_rss_mb} MB; ${r.status.stop_calls_in_cities} stop calls in cities`,
    );
  }

  let serverProc: ReturnType<typeof spawn> | null = null;
  const base = await new Promise<string>((resolve) => {
    serverProc = spawnSelf(['--server', storePath], (line) => resolve(line.trim()));
  });
  const paths = Array.from({ length: 2000 }, (_, k) => `/api/v1/live/berlin/transit/trips/${tripId((k * 9973) % TRIPS)}`);
  const probe = await fetch(base + paths[0]).then((r) => r.json() as Promise<Envelope>);
  if (probe.meta.source_status !== 'ok' || !probe.data || probe.data.unresolved) throw new Error(`trip detail probe failed: ${JSON.stringify(probe.meta)}`);
  let k = 0;
  for (const connections of [1, ...Array(ROUNDS).fill(10)]) {
    const load = await autocannon({
      url: base,
      connections,
      duration: 10,
      requests: [{ method: 'GET', setupRequest: (req: autocannon.Request) => ({ ...req, path: paths[k++ % paths.length] }) }],
    });
    console.log(
      `trip detail under load (${connections} connection${connections > 1 ? 's' : ''}, 10 s): ${Math.round(load.requests.average)} req/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, max ${load.latency.max} ms, errors ${load.errors}, non-2xx ${load.non2xx}`,
    );
  }
  const slug = 'berlin';
  const page = await autocannon({ url: `${base}/api/v1/live/${slug}/transit/departures?limit=25`, connections: 10, duration: 10 });
  console.log(
    `departures ${slug}, first page of 25, under load (10 connections, 10 s): ${Math.round(page.requests.average)} req/s, p50 ${page.latency.p50} ms, p99 ${page.latency.p99} ms, max ${page.latency.max} ms, non-2xx ${page.non2xx}`,
  );
  const depStarted = performance.now();
  const dep = await fetch(`${base}/api/v1/live/${slug}/transit/departures?limit=all`).then((r) => r.json() as Promise<Envelope>);
  console.log(`departures ${slug}: ${dep.data?.length ?? 0} items in ${Math.round(performance.now() - depStarted)} ms (single request, reference)`);
  serverProc!.kill();
  if (process.env.KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}

/** A child's command-line argument, set by main() when it forks the child. */
function arg(i: number): string {
  const v = process.argv[i];
  if (v === undefined) throw new Error(`bench child: argument ${i} missing`);
  return v;
}

if (process.argv[2] === '--poller') await pollerChild(arg(3), arg(4));
else if (process.argv[2] === '--server') await serverChild(arg(3));
else await main();
