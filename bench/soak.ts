/**
 * Memory under steady traffic (`node bench/soak.ts`): the server as `npm start` runs
 * it, background jobs on, against the fake upstream; 200 requests per second spread over 20 URLs
 * (cache HITs, composed views, not-covered and no-data answers, a 404) for BENCH_SOAK_MIN minutes
 * (default 30). Resident memory of the server and of the whole process tree every BENCH_SAMPLE_S
 * seconds (30); the growth is the slope of a least-squares line through the server's samples
 * after the first five minutes (the GTFS poll child comes and goes with each poll, so the tree's
 * samples are summarised apart: with and without a poll running).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { FakeUpstream } from '../test/helpers/fake-upstream.ts';
import { registerAllFixtures } from '../test/fixtures/index.ts';
import { fakeEnv } from '../test/helpers/app.ts';
import { privateStores } from '../test/helpers/stores.ts';
import { need } from './need.ts';
import { npmStartArgs } from './npm-start.ts';
import { rssMb, tree, treeRssMb } from './process-memory.ts';

const MINUTES = Number(process.env.BENCH_SOAK_MIN ?? 30);
const SAMPLE_S = Number(process.env.BENCH_SAMPLE_S ?? 30);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 200);
const PORT = 3941;
const URLS = [
  '/api/v1/cities/freiburg-im-breisgau/weather',
  '/api/v1/cities/Freiburg/weather',
  '/api/v1/cities/berlin/weather',
  '/api/v1/cities',
  '/api/v1/cities?limit=10&page=3',
  '/api/v1/cities/koeln',
  '/api/v1/sources',
  '/api/v1/cities/freiburg-im-breisgau/overview',
  '/api/v1/cities/hamburg/overview',
  '/api/v1/compare?resource=weather&cities=freiburg-im-breisgau,berlin,hamburg',
  '/api/v1/cities/berlin/holidays',
  '/api/v1/cities/muenchen/air',
  '/api/v1/cities/koeln/water-level',
  '/api/v1/cities/freiburg-im-breisgau/parking',
  '/api/v1/cities/koeln/weather-warnings',
  '/api/v1/live/hamburg/departures',
  '/api/v1/cities/dresden/charging',
  '/api/v1/coverage',
  '/api/v1/health',
  '/api/v1/cities/nowhere/weather',
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** Smallest, largest and number of the values (null when there are none). */
function range(values: number[]) {
  return values.length ? { min: Math.min(...values), max: Math.max(...values), samples: values.length } : null;
}

async function main() {
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  const env = {
    ...process.env,
    ...fakeEnv(fake.url),
    HOST: '127.0.0.1',
    PORT: String(PORT),
    JOBS_ENABLED: 'true',
    LOG_LEVEL: 'error',
    RATE_LIMIT_ENABLED: 'false',
    ...privateStores(mkdtempSync(join(tmpdir(), 'stadtdaten-soak-'))),
  };
  const p = spawn(process.execPath, npmStartArgs(), { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const pid = need(p.pid, 'the server process id');
  const base = `http://127.0.0.1:${PORT}`;
  for (
    let i = 0;
    i < 600 &&
    !(await fetch(`${base}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  )
    await sleep(50);
  const agent = new Agent({ connections: 16 });
  const statuses: Record<string, number> = {};
  let sent = 0;
  let running = true;
  const started = Date.now();
  const load = (async () => {
    // A fixed rate, not a closed loop: each tick sends what is due since the start.
    while (running) {
      const due = Math.floor(((Date.now() - started) / 1000) * RATE);
      while (sent < due) {
        const url = need(URLS[sent % URLS.length], 'a URL');
        sent++;
        request(base + url, { dispatcher: agent })
          .then(async (r) => {
            await r.body.dump();
            statuses[r.statusCode] = (statuses[r.statusCode] ?? 0) + 1;
          })
          .catch(() => {
            statuses.error = (statuses.error ?? 0) + 1;
          });
      }
      await sleep(5);
    }
  })();
  const samples: { minute: number; rss_server_mb: number; rss_tree_mb: number; children: number }[] = [];
  while (Date.now() - started < MINUTES * 60_000) {
    const s = { minute: +((Date.now() - started) / 60_000).toFixed(2), rss_server_mb: rssMb(pid), rss_tree_mb: treeRssMb(pid), children: tree(pid).length - 1 };
    samples.push(s);
    console.error(`${s.minute} min: server ${s.rss_server_mb} MB, tree ${s.rss_tree_mb} MB (${s.children} child), ${sent} requests`);
    await sleep(SAMPLE_S * 1000);
  }
  running = false;
  await load;
  await sleep(1000);
  const settled = samples.filter((s) => s.minute >= Math.min(5, MINUTES / 2));
  const summary = {
    minutes: MINUTES,
    rate_per_s: RATE,
    urls: URLS.length,
    requests: sent,
    statuses,
    rss_server_mb: { first: samples[0]?.rss_server_mb, max: Math.max(...samples.map((s) => s.rss_server_mb)), last: samples.at(-1)?.rss_server_mb },
    rss_tree_mb_between_polls: range(samples.filter((s) => s.children === 0).map((s) => s.rss_tree_mb)),
    rss_tree_mb_during_a_poll: range(samples.filter((s) => s.children > 0).map((s) => s.rss_tree_mb)),
    growth_mb_per_hour_after_warmup: +(slope(settled.map((s) => ({ x: s.minute, y: s.rss_server_mb }))) * 60).toFixed(1),
    samples,
  };
  console.log(JSON.stringify(summary, null, 2));
  p.kill('SIGTERM');
  await agent.close();
  await fake.stop();
  process.exit(0);
}

void main();
