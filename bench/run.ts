/**
 * Reproduces the table in bench/README.md: `npm run bench`.
 * (a) Stadtdaten cache HIT vs a bare Fastify route answering the same bytes,
 * (b) the same HIT vs nginx proxy_cache (one worker) in front of the same fake upstream,
 * (c) stampede: 1000 concurrent cold requests and the upstream calls they cause,
 * (d) p50/p99 of each. Servers run in their own processes; load comes from autocannon here.
 */
import autocannon from 'autocannon';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { FakeUpstream } from '../test/helpers/fake-upstream.ts';
import { registerAllFixtures } from '../test/fixtures/index.ts';
import { fakeEnv } from '../test/helpers/app.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUTE = '/api/v1/cities/berlin/weather';
const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-bench-'));
const children: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      /* not up yet */
    }
    await sleep(50);
  }
  throw new Error(`${url} did not come up`);
}

function load(url: string): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** `v`, or a bench failure naming what is missing (a scenario that produced no run). */
function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`bench: no ${what}`);
  return v;
}

const middle = <T>(xs: readonly T[], what: string): T => need(xs[Math.floor(xs.length / 2)], what);

/** Requests per second of round `i` of `a` over the same round of `b`. */
const roundRatio = (a: autocannon.Result, b: readonly autocannon.Result[], i: number) =>
  a.requests.average / need(b[i], `round ${i} to compare with`).requests.average;

function medianRatio(a: autocannon.Result[], b: autocannon.Result[]): number {
  const r = a.map((x, i) => roundRatio(x, b, i)).sort((x, y) => x - y);
  return +middle(r, 'ratio').toFixed(2);
}

async function main() {
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  // Stadtdaten itself, on the embedded store, pointed at the fake upstream.
  const env = {
    ...process.env,
    ...fakeEnv(fake.url),
    PORT: '3901',
    HOST: '127.0.0.1',
    JOBS_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    STORE_PATH: join(dir, 'store.sqlite'),
    // One load generator is one client: the per-client limit would answer it 429.
    RATE_LIMIT_ENABLED: 'false',
  };
  const svc = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(svc);
  await waitFor('http://127.0.0.1:3901/api/v1/health');
  const warm = await fetch(`http://127.0.0.1:3901${ROUTE}`);
  await warm.text();
  const hitBody = await (await fetch(`http://127.0.0.1:3901${ROUTE}`)).text();
  if (!hitBody.includes('"cache_status":"HIT"')) throw new Error('expected a HIT body');
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, hitBody);
  fake.get('/bench/body', { body: hitBody, headers: { 'content-type': 'application/json; charset=utf-8' } });

  const bare = fork('bench/servers/bare-fastify.ts', [bodyFile, '3902'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  children.push(bare);
  await waitFor(`http://127.0.0.1:3902${ROUTE}`);

  let nginxOk = false;
  try {
    mkdirSync(join(dir, 'tmp'));
    // nginx workers drop root: they must be able to write the cache below our temp dir.
    chmodSync(dir, 0o777);
    chmodSync(join(dir, 'tmp'), 0o777);
    const conf = readFileSync('bench/nginx.conf.template', 'utf8')
      .replace(/__DIR__/g, dir)
      .replace(/__PORT__/g, '3903')
      .replace(/__UPSTREAM_PORT__/g, new URL(fake.url).port);
    writeFileSync(join(dir, 'nginx.conf'), conf);
    const nginx = spawn(process.env.NGINX ?? 'nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
    children.push(nginx);
    await waitFor(`http://127.0.0.1:3903${ROUTE}`);
    nginxOk = true;
  } catch (err) {
    console.error(`nginx not available (${String(err)}); install it with: apt-get install -y nginx-light`);
  }

  // Rounds interleave the three targets so that background noise hits all of them alike; the median round counts.
  const targets: Record<string, string> = { stadtdaten: `http://127.0.0.1:3901${ROUTE}`, bare: `http://127.0.0.1:3902${ROUTE}` };
  if (nginxOk) targets.nginx = `http://127.0.0.1:3903${ROUTE}`;
  const runs: Record<string, autocannon.Result[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of Object.entries(targets)) (runs[name] ??= []).push(await load(url));
  }
  const results: Record<string, autocannon.Result> = {};
  for (const [name, rs] of Object.entries(runs))
    results[name] = middle(
      [...rs].sort((a, b) => a.requests.average - b.requests.average),
      `${name} run`,
    );

  // (c) stampede on a cold key: the upstream answers slowly so every request arrives while it is cold.
  fake.reset();
  registerAllFixtures(fake);
  fake.get('/current_weather', { file: 'brightsky/current_weather-feldberg-2022-07-24.json', delayMs: 500 });
  const { Agent, request } = await import('undici');
  const agent = new Agent({ connections: 1000 });
  const started = performance.now();
  const lat: number[] = [];
  const statuses = await Promise.all(
    Array.from({ length: 1000 }, async () => {
      const t = performance.now();
      const r = await request('http://127.0.0.1:3901/api/v1/cities/leipzig/weather', { dispatcher: agent });
      await r.body.text();
      lat.push(performance.now() - t);
      return r.statusCode;
    }),
  );
  const stampedeMs = performance.now() - started;
  lat.sort((a, b) => a - b);
  const stampede = {
    requests: 1000,
    ok: statuses.filter((s) => s === 200).length,
    upstream_calls: fake.count('/current_weather'),
    p50_ms: need(lat[499], 'stampede latency'),
    p99_ms: need(lat[989], 'stampede latency'),
    total_ms: Math.round(stampedeMs),
  };
  await agent.close();

  const row = (name: string, r: autocannon.Result) => ({
    name,
    rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    errors: r.errors + r.non2xx,
  });
  const ours = need(runs.stadtdaten, 'stadtdaten runs'),
    bareRuns = need(runs.bare, 'bare fastify runs'),
    nginx = runs.nginx;
  const table = [
    row('stadtdaten HIT', need(results.stadtdaten, 'stadtdaten result')),
    row('bare fastify, same bytes', need(results.bare, 'bare fastify result')),
    ...(results.nginx ? [row('nginx proxy_cache (1 worker)', results.nginx)] : []),
  ];
  const summary = {
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memory_gib: Math.round(totalmem() / 2 ** 30), node: process.version },
    settings: { duration_s: DURATION, rounds: ROUNDS, connections: CONNECTIONS, route: ROUTE, body_bytes: Buffer.byteLength(hitBody) },
    table,
    // Ratios per round (adjacent runs share the machine's momentary conditions), then their median.
    ratio_vs_bare: medianRatio(ours, bareRuns),
    ratio_vs_nginx: nginx ? medianRatio(ours, nginx) : null,
    ratios_per_round: ours.map((r, i) => ({
      vs_bare: +roundRatio(r, bareRuns, i).toFixed(2),
      vs_nginx: nginx ? +roundRatio(r, nginx, i).toFixed(2) : null,
    })),
    stampede,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.json', JSON.stringify(summary, null, 2));
  console.log(JSON.stringify(summary, null, 2));
  console.log('\n| scenario | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|');
  for (const r of table) console.log(`| ${r.name} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${r.errors} |`);
  console.log(
    `\nratio vs bare: ${summary.ratio_vs_bare}; ratio vs nginx: ${summary.ratio_vs_nginx}; stampede: ${stampede.upstream_calls} upstream call(s) for ${stampede.requests} cold requests (p50 ${stampede.p50_ms.toFixed(1)} ms, p99 ${stampede.p99_ms.toFixed(1)} ms)`,
  );
  await fake.stop();
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const c of children) c.kill('SIGTERM');
  });
