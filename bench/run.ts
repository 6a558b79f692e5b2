/**
 * Reproduces the HTTP tables in bench/README.md: `npm run bench`.
 * Each scenario's answer is loaded from Stadtdaten, from a bare Fastify route answering the very
 * same bytes, and from nginx proxy_cache (one worker) serving them too, in interleaved rounds on
 * one machine in one run; then ratios per round and their median. Then the stampede: 1000
 * concurrent cold requests and the upstream calls they cause.
 * Load generator: wrk (`apt-get install -y wrk`); without it autocannon, with a warning.
 * Knobs: BENCH_DURATION (s, default 5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (64,256: the first
 * level runs every scenario, the others the plain HIT), BENCH_SCENARIOS (comma list of names),
 * BENCH_REDIS=0 to skip the two-instance Redis scenario, BENCH_NGINX_ACCESS_LOG=1 to let nginx
 * write its access log (nginx's default; off by default here, as Stadtdaten writes none per
 * request), NGINX, WRK (binaries).
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { FakeUpstream } from '../test/helpers/fake-upstream.ts';
import { registerAllFixtures } from '../test/fixtures/index.ts';
import { fakeEnv } from '../test/helpers/app.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { encodeEntry } from '../src/pipeline/cache.ts';
import { AUTOCANNON_WARNING, load, pickGenerator, type LoadResult } from './load.ts';
import { need } from './need.ts';
import { npmStartArgs } from './npm-start.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LEVELS = (process.env.BENCH_CONNECTIONS ?? '64,256').split(',').map(Number);
const ONLY = process.env.BENCH_SCENARIOS?.split(',');
const PORTS = { svc: 3901, bare: 3902, nginx: 3903, pairA: 3904, pairB: 3905, pair: 3906, redis: 3907, node: 3908 };
const WEATHER = '/api/v1/cities/berlin/weather';
const STALE_CITY = 'hamburg';
const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-bench-'));
const children: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const local = (port: number, url: string) => `http://127.0.0.1:${port}${url}`;

interface Scenario {
  name: string;
  url: string;
  /** What the answer must say (checked before and after the load). */
  expect?: RegExp;
  /** Stadtdaten's answer is not the same bytes every time (a timestamp, STALE vs STALE-ON-ERROR), only about the same size. */
  varying?: boolean;
}

const SCENARIOS: Scenario[] = [
  { name: 'hit', url: WEATHER, expect: /"cache_status":"HIT"/ },
  { name: 'hit-query', url: `${WEATHER}?limit=10`, expect: /"cache_status":"HIT"/ },
  { name: 'hit-tolerant-slug', url: '/api/v1/cities/Munich/weather', expect: /"cache_status":"HIT"/ },
  // The held refresh ends at the source's timeout; the answers then say STALE-ON-ERROR until the next one.
  { name: 'stale', url: `/api/v1/cities/${STALE_CITY}/weather`, expect: /"cache_status":"STALE(-ON-ERROR)?"/, varying: true },
  { name: 'cities', url: '/api/v1/cities' },
  { name: 'overview', url: '/api/v1/cities/berlin/overview', expect: /"cache_status":"HIT"/, varying: true },
].filter((s) => !ONLY || ONLY.includes(s.name));

async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      /* not up yet */
    }
    await sleep(50);
  }
  throw new Error(`${url} did not come up`);
}

/** Stadtdaten as `npm start` runs it (same Node flags): compiled JavaScript (scripts/start.js builds dist/ when stale), no tsx. */
function startStadtdaten(port: number, env: Record<string, string | undefined>): ChildProcess {
  const p = spawn(process.execPath, npmStartArgs(), { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(p);
  return p;
}

async function body(url: string): Promise<Buffer> {
  const r = await fetch(url);
  if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
  return Buffer.from(await r.arrayBuffer());
}

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const TICKS_PER_S = 100;

/** User + system CPU ticks of a process so far (/proc/<pid>/stat fields 14 and 15), or null off Linux. */
function cpuTicks(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return need(s[Math.floor(s.length / 2)], 'a sample for the median');
}

async function main() {
  // The servers below run compiled JavaScript: build dist/ first when it is missing or stale.
  spawnSync(process.execPath, ['-e', "import('./scripts/start.js').then((m) => m.ensureBuilt())"], { stdio: 'inherit' });
  const gen = pickGenerator();
  if (gen === 'autocannon') console.error(AUTOCANNON_WARNING);
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  // While set, Bright Sky answers only after an hour: each STALE refresh stays in flight until the source's timeout.
  let holdWeather = false;
  fake.get('/current_weather', () => ({ file: 'brightsky/current_weather-feldberg-2022-07-24.json', delayMs: holdWeather ? 3_600_000 : 0 }));
  const env = {
    ...process.env,
    ...fakeEnv(fake.url),
    HOST: '127.0.0.1',
    JOBS_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    STORE_PATH: join(dir, 'store.sqlite'),
    // The load generator is one client: the per-client limit would turn the bench into a 429 bench.
    RATE_LIMIT_ENABLED: 'false',
  };
  const svc = startStadtdaten(PORTS.svc, env);
  await waitFor(local(PORTS.svc, '/api/v1/health'));

  // Warm every scenario: the first request fills the cache, the second is the HIT that prepares the bytes.
  for (const s of SCENARIOS) if (s.name !== 'stale') for (let i = 0; i < 2; i++) await body(local(PORTS.svc, s.url));
  if (SCENARIOS.some((s) => s.name === 'stale')) {
    // An answer fetched past its fresh window (weather: 10 min), inside its stale window.
    const hit = JSON.parse((await body(local(PORTS.svc, WEATHER))).toString()) as { data: unknown; meta: { as_of: string } };
    const store = new SqliteStore(env.STORE_PATH);
    await store.set(
      `cache:weather:${STALE_CITY}:`,
      encodeEntry({ fetchedAt: Date.now() - 15 * 60_000, status: 'ok', asOf: hit.meta.as_of, meta: {}, dataJson: JSON.stringify(hit.data) }),
      3600_000,
    );
    await store.close();
    holdWeather = true;
  }
  const callsBefore = fake.count('/current_weather');

  const bodies: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  for (const [i, s] of SCENARIOS.entries()) {
    const b = await body(local(PORTS.svc, s.url));
    if (s.expect && !s.expect.test(b.toString())) throw new Error(`${s.name}: unexpected answer ${b.toString().slice(0, 300)}`);
    const file = join(dir, `body-${i}.json`);
    writeFileSync(file, b);
    bodies[s.url] = file;
    sizes[s.name] = b.length;
  }
  fake.get(/^\/bench\//, (_req, url) => {
    const file = bodies[url.pathname.slice('/bench'.length) + url.search];
    return file ? { body: readFileSync(file), headers: { 'content-type': 'application/json; charset=utf-8' } } : { status: 404, body: 'no such bench body' };
  });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(bodies));
  const bare = fork('bench/servers/bare-fastify.ts', [join(dir, 'manifest.json'), String(PORTS.bare)], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  children.push(bare);
  await waitFor(local(PORTS.bare, need(SCENARIOS[0], 'a scenario').url));
  // node:http without a framework: the stack's own ceiling, measured for the plain HIT only.
  const bareNode = fork('bench/servers/bare-node.ts', [join(dir, 'manifest.json'), String(PORTS.node)], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  children.push(bareNode);
  await waitFor(local(PORTS.node, need(SCENARIOS[0], 'a scenario').url));

  // Two instances on one Redis behind one port (nginx round robin): report only.
  let pairOk = false;
  if (process.env.BENCH_REDIS !== '0' && !spawnSync('redis-server', ['--version']).error) {
    const redis = spawn('redis-server', ['--port', String(PORTS.redis), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    children.push(redis);
    const pairEnv = { ...env, REDIS_URL: `redis://127.0.0.1:${PORTS.redis}`, REDIS_KEY_PREFIX: `bench-${process.pid}:` };
    await sleep(300);
    startStadtdaten(PORTS.pairA, pairEnv);
    startStadtdaten(PORTS.pairB, pairEnv);
    await waitFor(local(PORTS.pairA, '/api/v1/health'));
    await waitFor(local(PORTS.pairB, '/api/v1/health'));
    holdWeather = false;
    for (const port of [PORTS.pairA, PORTS.pairB, PORTS.pairA, PORTS.pairB]) await body(local(port, WEATHER));
    holdWeather = SCENARIOS.some((s) => s.name === 'stale');
    pairOk = true;
  } else if (process.env.BENCH_REDIS !== '0') console.error('redis-server not found (apt-get install -y redis-server): the two-instance scenario is skipped');

  let nginxOk = false;
  try {
    mkdirSync(join(dir, 'tmp'));
    // nginx workers drop root: they must be able to write the cache below our temp dir.
    chmodSync(dir, 0o777);
    chmodSync(join(dir, 'tmp'), 0o777);
    const conf = readFileSync('bench/nginx.conf.template', 'utf8')
      .replace(/__DIR__/g, dir)
      .replace(/__PORT__/g, String(PORTS.nginx))
      .replace(/__PAIR_PORT__/g, String(PORTS.pair))
      .replace(/__PAIR_A__/g, String(PORTS.pairA))
      .replace(/__PAIR_B__/g, String(PORTS.pairB))
      .replace(/__UPSTREAM_PORT__/g, new URL(fake.url).port)
      .replace('access_log off;', process.env.BENCH_NGINX_ACCESS_LOG === '1' ? `access_log ${dir}/access.log;` : 'access_log off;');
    writeFileSync(join(dir, 'nginx.conf'), conf);
    const nginx = spawn(process.env.NGINX ?? 'nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
    children.push(nginx);
    await waitFor(local(PORTS.nginx, need(SCENARIOS[0], 'a scenario').url));
    nginxOk = true;
  } catch (err) {
    console.error(`nginx not available (${String(err)}); install it with: apt-get install -y nginx-light`);
  }
  for (const s of SCENARIOS) {
    const ours = await body(local(PORTS.svc, s.url));
    const theirs = [await body(local(PORTS.bare, s.url)), ...(nginxOk ? [await body(local(PORTS.nginx, s.url))] : [])];
    for (const t of theirs) {
      if (s.varying ? Math.abs(t.length - ours.length) > 16 : !t.equals(ours)) throw new Error(`${s.name}: the references do not answer the same bytes`);
    }
  }

  // Rounds interleave the targets so that background noise hits them alike; per-round ratios, then the median.
  type Runs = Record<string, LoadResult[]>;
  const runs: Record<string, Runs> = {};
  const jobs: { key: string; targets: Record<string, string>; connections: number }[] = [];
  for (const [li, connections] of LEVELS.entries()) {
    for (const s of SCENARIOS) {
      if (li > 0 && s.name !== 'hit') continue;
      const targets: Record<string, string> = { stadtdaten: local(PORTS.svc, s.url), bare: local(PORTS.bare, s.url) };
      if (nginxOk) targets.nginx = local(PORTS.nginx, s.url);
      if (s.name === 'hit') targets.node = local(PORTS.node, s.url);
      jobs.push({ key: `${s.name} c${connections}`, targets, connections });
    }
    if (li === 0 && pairOk && nginxOk && (!ONLY || ONLY.includes('redis-pair'))) {
      jobs.push({
        key: `redis-pair c${connections}`,
        targets: { stadtdaten: local(PORTS.pair, WEATHER), bare: local(PORTS.bare, WEATHER), nginx: local(PORTS.nginx, WEATHER) },
        connections,
      });
    }
  }
  // CPU time per answered request of the Node servers (user + system, from /proc): what each request costs the process, whatever the load generator's rate.
  const pids: Record<string, number | undefined> = { stadtdaten: svc.pid, bare: bare.pid, node: bareNode.pid };
  const cpu: Record<string, Record<string, number[]>> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const job of jobs) {
      for (const [name, url] of Object.entries(job.targets)) {
        const pid = job.key.startsWith('redis-pair') && name === 'stadtdaten' ? undefined : pids[name];
        const before = cpuTicks(pid);
        const result = await load(gen, url, job.connections, DURATION);
        ((runs[job.key] ??= {})[name] ??= []).push(result);
        const after = cpuTicks(pid);
        if (before !== null && after !== null && result.requests > 0)
          ((cpu[job.key] ??= {})[name] ??= []).push(((after - before) * 1e6) / TICKS_PER_S / result.requests);
      }
    }
    console.error(`round ${round + 1}/${ROUNDS} done`);
  }
  const staleCalls = fake.count('/current_weather') - callsBefore;
  const staleAfter = SCENARIOS.some((s) => s.name === 'stale') ? (await body(local(PORTS.svc, `/api/v1/cities/${STALE_CITY}/weather`))).toString() : '';
  holdWeather = false;

  const ratio = (a: LoadResult[], b: LoadResult[] | undefined, f: (r: LoadResult) => number) =>
    b ? +median(a.map((x, i) => f(x) / f(need(b[i], `reference run ${i}`)))).toFixed(2) : null;
  const table = Object.entries(runs).map(([key, r]) => {
    const ourRuns = need(r.stadtdaten, `${key}: stadtdaten runs`);
    const bareRuns = need(r.bare, `${key}: bare runs`);
    return {
      scenario: key,
      stadtdaten_rps: median(ourRuns.map((x) => x.rps)),
      bare_rps: median(bareRuns.map((x) => x.rps)),
      nginx_rps: r.nginx ? median(r.nginx.map((x) => x.rps)) : null,
      hit_vs_bare: ratio(ourRuns, bareRuns, (x) => x.rps),
      hit_vs_nginx: ratio(ourRuns, r.nginx, (x) => x.rps),
      node_rps: r.node ? median(r.node.map((x) => x.rps)) : null,
      hit_vs_node: ratio(ourRuns, r.node, (x) => x.rps),
      node_vs_nginx: r.node && r.nginx ? ratio(r.node, r.nginx, (x) => x.rps) : null,
      p99_vs_bare: ratio(ourRuns, bareRuns, (x) => Math.max(x.p99_ms, 0.001)),
      stadtdaten_p50_p99_ms: [median(ourRuns.map((x) => x.p50_ms)), median(ourRuns.map((x) => x.p99_ms))],
      bare_p50_p99_ms: [median(bareRuns.map((x) => x.p50_ms)), median(bareRuns.map((x) => x.p99_ms))],
      nginx_p50_p99_ms: r.nginx ? [median(r.nginx.map((x) => x.p50_ms)), median(r.nginx.map((x) => x.p99_ms))] : null,
      errors: Object.fromEntries(Object.entries(r).map(([n, xs]) => [n, xs.reduce((a, x) => a + x.errors, 0)])),
      per_round_vs_bare: ourRuns.map((x, i) => +(x.rps / need(bareRuns[i], `${key}: bare run ${i}`).rps).toFixed(2)),
      cpu_us_per_request: Object.fromEntries(Object.entries(cpu[key] ?? {}).map(([n, xs]) => [n, +median(xs).toFixed(2)])),
    };
  });

  // Stampede on a cold key: the upstream answers slowly so every request arrives while it is cold.
  fake.get('/current_weather', { file: 'brightsky/current_weather-feldberg-2022-07-24.json', delayMs: 500 });
  // The STALE check above started one more refresh: let it reach the upstream before counting.
  await sleep(300);
  const stampedeBefore = fake.count('/current_weather');
  const { Agent, request } = await import('undici');
  const agent = new Agent({ connections: 1000 });
  const started = performance.now();
  const lat: number[] = [];
  const statuses = await Promise.all(
    Array.from({ length: 1000 }, async () => {
      const t = performance.now();
      const r = await request(local(PORTS.svc, '/api/v1/cities/leipzig/weather'), { dispatcher: agent });
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
    upstream_calls: fake.count('/current_weather') - stampedeBefore,
    p50_ms: +need(lat[499], 'the 500th latency').toFixed(1),
    p99_ms: +need(lat[989], 'the 990th latency').toFixed(1),
    total_ms: Math.round(stampedeMs),
  };
  await agent.close();

  const summary = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      memory_gib: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      load_average: readFileSync('/proc/loadavg', 'utf8').trim(),
    },
    generator: gen === 'wrk' ? 'wrk -t1' : 'autocannon (fallback)',
    warning: gen === 'wrk' ? null : AUTOCANNON_WARNING,
    settings: { duration_s: DURATION, rounds: ROUNDS, connections: LEVELS, body_bytes: sizes },
    table,
    stale: { upstream_calls_during_load: staleCalls, answer_after: /"cache_status":"([A-Z-]+)"/.exec(staleAfter)?.[1] ?? null },
    stampede,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.json', JSON.stringify(summary, null, 2));
  console.log(JSON.stringify(summary, null, 2));
  console.log(`\nload generator: ${summary.generator}; ${DURATION} s x ${ROUNDS} interleaved rounds; machine: ${cpus().length} x ${summary.machine.cpu}`);
  console.log(
    '\n| scenario | Stadtdaten req/s | bare req/s | nginx req/s | HIT/bare | HIT/nginx | p99/bare | p50/p99 ms (ours, bare, nginx) |\n|---|---|---|---|---|---|---|---|',
  );
  for (const r of table) {
    const lat = [r.stadtdaten_p50_p99_ms, r.bare_p50_p99_ms, r.nginx_p50_p99_ms].map((x) => (x ? x.join('/') : '-')).join(', ');
    console.log(
      `| ${r.scenario} | ${r.stadtdaten_rps} | ${r.bare_rps} | ${r.nginx_rps ?? '-'} | ${r.hit_vs_bare} | ${r.hit_vs_nginx ?? '-'} | ${r.p99_vs_bare} | ${lat} |`,
    );
  }
  for (const r of table.filter((x) => x.node_rps !== null)) {
    console.log(`${r.scenario}: node:http without a framework ${r.node_rps} req/s; HIT/node ${r.hit_vs_node}, node/nginx ${r.node_vs_nginx ?? '-'}`);
  }
  for (const r of table) {
    const c = r.cpu_us_per_request;
    console.log(
      `${r.scenario}: CPU per request (user + system, µs): Stadtdaten ${c.stadtdaten ?? '-'}, bare Fastify ${c.bare ?? '-'}, node:http ${c.node ?? '-'}`,
    );
  }
  if (gen !== 'wrk') console.log(`\n${AUTOCANNON_WARNING}`);
  console.log(
    `\nstale: ${summary.stale.upstream_calls_during_load} upstream call(s) during the load, answer afterwards ${summary.stale.answer_after}; stampede: ${stampede.upstream_calls} upstream call(s) for ${stampede.requests} cold requests (p50 ${stampede.p50_ms} ms, p99 ${stampede.p99_ms} ms)`,
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
    // The held Bright Sky answer keeps a timer; nothing else is left to wait for.
    setTimeout(() => process.exit(), 500).unref();
  });
