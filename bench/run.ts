/**
 * The warm-path table of bench/README.md: `npm run bench`.
 * Every scenario's answer is taken from Stadtdaten, then served as the very same bytes by a bare
 * reference: bare `node:http` for the fresh cache HIT (the stack's own limit), bare Fastify for
 * every other warm path, a bare MCP SDK server on bare Fastify for the MCP tool call. Each run is
 * paired: Stadtdaten and its reference are loaded at the same time, each by its own wrk, both
 * servers pinned to one shared core (bench/pin.ts), so that the moves in a shared machine's speed hit
 * both alike. Per paired run the throughput and p99 ratios, then their medians over the rounds, and
 * the CPU each process spent per answered request (user + system, from /proc), the figure that
 * holds across machines. A control row loads two instances of bare node:http the same way: its
 * ratio is the method's own spread. Then the stampede: 1000 concurrent cold requests and the
 * upstream calls they cause.
 * Load generator: wrk -t1 (`apt-get install -y wrk`); without it autocannon, with a warning.
 * Knobs: BENCH_DURATION (s, default 5), BENCH_WARMUP (s of unmeasured paired load of the same job right
 * before each measured one, default 2), BENCH_ROUNDS (4), BENCH_CONNECTIONS (64,256: the first level runs
 * every scenario, the others the plain HIT), BENCH_SCENARIOS (comma list of names), WRK.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { FakeUpstream } from '../test/helpers/fake-upstream.ts';
import { registerAllFixtures } from '../test/fixtures/index.ts';
import { currentWeather } from '../test/fixtures/brightsky/routes.ts';
import { fakeEnv } from '../test/helpers/app.ts';
import { privateStores } from '../test/helpers/stores.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { decodeEntry, encodeEntry } from '../src/pipeline/cache.ts';
import { AUTOCANNON_WARNING, load, pickGenerator, type LoadRequest, type LoadResult } from './load.ts';
import { median } from './median.ts';
import { need } from './need.ts';
import { PINNING, PINNING_WARNING, pinServer } from './pin.ts';
import { npmStartArgs } from './npm-start.ts';
import { TICKS_PER_S, cpuTicks } from './process-cpu.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
/** Seconds of unmeasured load of the same job right before each measured one (ours and the reference alike). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** Even, so that each server starts its load first equally often. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const LEVELS = (process.env.BENCH_CONNECTIONS ?? '64,256').split(',').map(Number);
const ONLY = process.env.BENCH_SCENARIOS?.split(',');
const PORTS = { svc: 3901, bare: 3902, node: 3903, stale: 3904, mcp: 3905, cold: 3906, control: 3907, trust: 3908, inProcess: 3909 };
// Bright Sky's recording is Freiburg's (Feldberg station): the one city whose weather answer is that recording.
const CITY = 'freiburg-im-breisgau';
const WEATHER = `/api/v1/cities/${CITY}/weather`;
const TEN = [CITY, 'berlin', 'hamburg', 'muenchen', 'koeln', 'frankfurt-am-main', 'stuttgart', 'duesseldorf', 'leipzig', 'dortmund'];
const MCP_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'environment', arguments: { city: CITY, data_type: 'weather' } },
});
const MCP_REQUEST: LoadRequest = {
  method: 'POST',
  body: MCP_CALL,
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
};
const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-bench-'));
const children: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const local = (port: number, url: string) => `http://127.0.0.1:${port}${url}`;

type Reference = 'node' | 'bare' | 'mcp';
interface Scenario {
  name: string;
  url: string;
  /** Which bare server serves the same bytes. */
  reference: Reference;
  /** The throughput ratio to reach; none for the control row. */
  target?: number;
  /** What the answer must say (checked before the load). */
  expect?: RegExp;
  /** Our answer is not the same bytes every time (a timestamp, STALE vs STALE-ON-ERROR), only about the same size. */
  varying?: boolean;
  /** Served by its own instance (the STALE scenario: its store is seeded with an old entry). */
  port?: number;
  request?: LoadRequest;
  /** The reference's manifest key when the URL alone does not pick the answer (see bench/servers/bare-node.ts). */
  key?: string;
}

/** The client address a proxy in front names (TEST-NET-3, RFC 5737). */
const FORWARDED: LoadRequest = { method: 'GET', headers: { 'x-forwarded-for': '203.0.113.7' } };
const GZIP: LoadRequest = { method: 'GET', headers: { 'accept-encoding': 'gzip' } };

const ALL_SCENARIOS: Scenario[] = [
  { name: 'hit', url: WEATHER, reference: 'node', target: 0.9, expect: /"cache_status":"HIT"/ },
  // Bare node:http against a second instance of itself: what the method reads for two equal servers.
  { name: 'control', url: WEATHER, reference: 'node', port: PORTS.control },
  // Bare node:http inside the Stadtdaten process (bench/servers/in-process.js): Node's HTTP path in the
  // application's process, without the lane; the HIT rows' ceiling in that process (no target).
  { name: 'in-process', url: WEATHER, reference: 'node', port: PORTS.inProcess },
  { name: 'hit-query', url: `${WEATHER}?limit=10`, reference: 'node', target: 0.9, expect: /"cache_status":"HIT"/ },
  { name: 'hit-tolerant-slug', url: '/api/v1/cities/Freiburg/weather', reference: 'node', target: 0.9, expect: /"cache_status":"HIT"/ },
  // The recommended deployment: behind nginx (TRUST_PROXY=1), the client address read from X-Forwarded-For and
  // counted by the rate limit (a budget the bench never exhausts), on an instance of its own.
  {
    name: 'hit-trust-proxy',
    url: WEATHER,
    key: `trust ${WEATHER}`,
    reference: 'node',
    target: 0.9,
    expect: /"cache_status":"HIT"/,
    port: PORTS.trust,
    request: FORWARDED,
  },
  // Accept-Encoding: gzip, against node:http sending the same pre-compressed bytes.
  { name: 'hit-gzip', url: WEATHER, key: `gzip ${WEATHER}`, reference: 'node', target: 0.9, expect: /"cache_status":"HIT"/, request: GZIP },
  // The held refresh ends at the source's timeout; the answers then say STALE-ON-ERROR until the next one.
  // Its own URL (a query the type ignores), so that the references tell its bytes from the HIT's.
  {
    name: 'stale',
    url: `${WEATHER}?instance=stale`,
    reference: 'bare',
    target: 0.5,
    expect: /"cache_status":"STALE(-ON-ERROR)?"/,
    varying: true,
    port: PORTS.stale,
  },
  { name: 'cities', url: '/api/v1/cities', reference: 'bare', target: 0.5 },
  { name: 'sources', url: '/api/v1/sources', reference: 'bare', target: 0.5 },
  { name: 'overview', url: `/api/v1/cities/${CITY}/overview`, reference: 'bare', target: 0.5, expect: /"cache_status":"HIT"/, varying: true },
  { name: 'compare-10', url: `/api/v1/compare?resource=weather&cities=${TEN.join(',')}`, reference: 'bare', target: 0.5, expect: /"cache_status":"HIT"/ },
  { name: 'mcp-call', url: '/mcp', reference: 'mcp', target: 0.5, expect: /"result"/, varying: true, request: MCP_REQUEST },
];
const SCENARIOS = ALL_SCENARIOS.filter((s) => !ONLY || ONLY.includes(s.name));

/** Until `url` answers 200 (or any status with `anyStatus`: a server that is up). */
async function waitFor(url: string, anyStatus = false) {
  for (let i = 0; i < 300; i++) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (anyStatus || r.status === 200) return;
    } catch {
      /* not up yet */
    }
    await sleep(50);
  }
  throw new Error(`${url} did not come up`);
}

/** Stadtdaten as `npm start` runs it (same Node flags): compiled JavaScript (scripts/start.js builds dist/ when stale). */
function startStadtdaten(port: number, env: Record<string, string | undefined>): ChildProcess {
  const p = spawn(process.execPath, npmStartArgs(), { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(p);
  return p;
}

type References = Record<Reference, { port: number; proc: ChildProcess }> & { control?: ChildProcess };

/** The bare references, and the control's second node:http when asked for: started, answering and pinned. */
async function startReferences(files: { manifest: string; mcp: string }, control: boolean): Promise<References> {
  const refs: References = {
    node: { port: PORTS.node, proc: startBare('bench/servers/bare-node.ts', files.manifest, PORTS.node) },
    bare: { port: PORTS.bare, proc: startBare('bench/servers/bare-fastify.ts', files.manifest, PORTS.bare) },
    mcp: { port: PORTS.mcp, proc: startBare('bench/servers/bare-mcp.ts', files.mcp, PORTS.mcp) },
    ...(control ? { control: startBare('bench/servers/bare-node.ts', files.manifest, PORTS.control) } : {}),
  };
  await Promise.all([PORTS.node, PORTS.bare, PORTS.mcp, ...(control ? [PORTS.control] : [])].map((p) => waitFor(local(p, '/'), true)));
  for (const p of [refs.node.proc, refs.bare.proc, refs.mcp.proc, refs.control]) pinServer(p?.pid);
  return refs;
}

async function restartReferences(refs: References, files: { manifest: string; mcp: string }, control: boolean): Promise<References> {
  const procs = [refs.node.proc, refs.bare.proc, refs.mcp.proc, refs.control].filter((p) => p !== undefined);
  await Promise.all(procs.map((p) => new Promise((resolve) => p.once('exit', resolve).kill('SIGTERM'))));
  return startReferences(files, control);
}

function startBare(script: string, manifest: string, port: number): ChildProcess {
  const p = fork(script, [manifest, String(port)], { execArgv: [], stdio: 'inherit' });
  children.push(p);
  return p;
}

async function answer(url: string, request?: LoadRequest): Promise<{ body: Buffer; headers: [string, string][]; framing: string }> {
  // undici's request, not fetch: a compressed answer must stay the bytes on the wire.
  const { request: send } = await import('undici');
  const r = await send(url, request ? { method: request.method, body: request.body, headers: request.headers } : {});
  if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`);
  // What the references send besides the body: the same headers, less those Node writes itself.
  const headers: [string, string][] = [];
  for (const [k, v] of Object.entries(r.headers))
    if (v !== undefined && !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k))
      for (const one of Array.isArray(v) ? v : [v]) headers.push([k, one]);
  // How the body is framed on the wire (a length or chunks), which the references must match too.
  const framing = `content-length ${String(r.headers['content-length'])}, transfer-encoding ${String(r.headers['transfer-encoding'])}`;
  return { body: Buffer.from(await r.body.arrayBuffer()), headers, framing };
}

/** The text of an answer as a client reads it (a gzip answer decompressed). */
function readable(a: { body: Buffer; headers: [string, string][] }): string {
  return a.headers.some(([k, v]) => k === 'content-encoding' && v === 'gzip') ? gunzipSync(a.body).toString() : a.body.toString();
}

async function body(url: string, request?: LoadRequest): Promise<Buffer> {
  return (await answer(url, request)).body;
}

/** A second instance whose store holds Freiburg's weather entry fetched 15 min ago (fresh 10 min, stale 1 h), with the refresh held. */
async function startStaleInstance(env: Record<string, string>): Promise<ChildProcess> {
  const held = await new FakeUpstream().start();
  registerAllFixtures(held);
  // Bright Sky answers only after an hour: each STALE refresh stays in flight until the source's timeout.
  held.get('/current_weather', (_req, url) => ({ ...currentWeather(url), delayMs: 3_600_000 }));
  // The main instance's own entry for Freiburg, made older: the very answer, only its age differs.
  const key = `cache:weather:${CITY}:`;
  const main = new SqliteStore(need(env.STORE_PATH, 'STORE_PATH'));
  const entry = decodeEntry(need(await main.get(key), `the warm entry ${key}`));
  await main.close();
  const storePath = join(dir, 'stale.sqlite');
  const store = new SqliteStore(storePath);
  await store.set(key, encodeEntry({ ...need(entry, 'a decodable entry'), fetchedAt: Date.now() - 15 * 60_000 }), 3600_000);
  await store.close();
  const p = startStadtdaten(PORTS.stale, { ...env, ...fakeEnv(held.url), STORE_PATH: storePath, HISTORY_PATH: join(dir, 'stale-history.sqlite') });
  await waitFor(local(PORTS.stale, '/api/v1/health'));
  // Two requests: the first starts the (held) refresh, the second finds it running.
  for (let i = 0; i < 2; i++) await body(local(PORTS.stale, WEATHER));
  return p;
}

/** An instance as the nginx guide runs it: TRUST_PROXY=1 and the per-client limit on, with a budget the bench never spends. */
async function startTrustProxyInstance(env: Record<string, string>): Promise<ChildProcess> {
  const p = startStadtdaten(PORTS.trust, {
    ...env,
    STORE_PATH: join(dir, 'trust.sqlite'),
    TRUST_PROXY: '1',
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_MAX: '10000000',
    RATE_LIMIT_WINDOW_S: '3600',
  });
  await waitFor(local(PORTS.trust, '/api/v1/health'));
  for (let i = 0; i < 3; i++) await body(local(PORTS.trust, WEATHER), FORWARDED);
  return p;
}

async function main() {
  // The servers below run compiled JavaScript: build dist/ first when it is missing or stale.
  spawnSync(process.execPath, ['-e', "import('./scripts/start.js').then((m) => m.ensureBuilt())"], { stdio: 'inherit' });
  const gen = pickGenerator();
  if (gen === 'autocannon') console.error(AUTOCANNON_WARNING);
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...fakeEnv(fake.url),
    HOST: '127.0.0.1',
    JOBS_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    ...privateStores(dir),
    // The load generator is one client: the per-client limit would turn the bench into a 429 bench.
    RATE_LIMIT_ENABLED: 'false',
  };
  const inProcess = SCENARIOS.some((s) => s.port === PORTS.inProcess);
  const svc = startStadtdaten(PORTS.svc, {
    ...env,
    ...(inProcess
      ? {
          NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(resolve('bench/servers/in-process.js')).href}`.trim(),
          BENCH_IN_PROCESS_PORT: String(PORTS.inProcess),
          BENCH_IN_PROCESS_MANIFEST: join(dir, 'manifest.json'),
        }
      : {}),
  });
  await waitFor(local(PORTS.svc, '/api/v1/health'));
  // Warm every scenario: the first request fills the cache, the second is the HIT that prepares the bytes.
  for (const s of SCENARIOS) if (!s.port) for (let i = 0; i < 3; i++) await body(local(PORTS.svc, s.url), s.request);
  const stale = SCENARIOS.some((s) => s.name === 'stale') ? await startStaleInstance(env) : null;
  const trust = SCENARIOS.some((s) => s.port === PORTS.trust) ? await startTrustProxyInstance(env) : null;
  const pidOf: Record<number, number | undefined> = { [PORTS.svc]: svc.pid, [PORTS.inProcess]: svc.pid, [PORTS.stale]: stale?.pid, [PORTS.trust]: trust?.pid };

  const manifest: Record<string, { file: string; headers: [string, string][] }> = {};
  const mcpResults: Record<string, unknown> = {};
  const sizes: Record<string, number> = {};
  for (const [i, s] of SCENARIOS.entries()) {
    if (s.port === PORTS.control || s.port === PORTS.inProcess) continue;
    const a = await answer(local(s.port ?? PORTS.svc, s.url), s.request);
    const b = a.body;
    if (s.expect && !s.expect.test(readable(a))) throw new Error(`${s.name}: unexpected answer ${readable(a).slice(0, 300)}`);
    sizes[s.name] = b.length;
    if (s.reference === 'mcp') {
      mcpResults[s.name] = (JSON.parse(b.toString()) as { result: unknown }).result;
      continue;
    }
    const file = join(dir, `body-${i}.json`);
    writeFileSync(file, b);
    manifest[s.key ?? s.url] = { file, headers: a.headers };
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'mcp.json'), JSON.stringify(mcpResults['mcp-call'] ?? null));
  const files = { manifest: join(dir, 'manifest.json'), mcp: join(dir, 'mcp.json') };
  const control = SCENARIOS.some((s) => s.port === PORTS.control);
  let refs = await startReferences(files, control);
  for (const s of SCENARIOS) {
    const ref = refs[s.reference];
    const ours = await answer(local(s.port ?? PORTS.svc, s.url), s.request);
    const theirs = await answer(local(ref.port, s.url), s.request);
    if (s.varying ? Math.abs(theirs.body.length - ours.body.length) > 16 : !theirs.body.equals(ours.body))
      throw new Error(`${s.name}: the reference does not answer the same bytes`);
    if (!s.varying && theirs.framing !== ours.framing)
      throw new Error(`${s.name}: the reference frames its body otherwise (${theirs.framing}; ours ${ours.framing})`);
  }
  // Every server under load shares one core; the load generators run on the others (bench/pin.ts).
  for (const pid of Object.values(pidOf)) pinServer(pid);
  if (!PINNING) console.error(PINNING_WARNING);

  // Rounds interleave the jobs; within a job both servers are loaded at once. Per-round ratios, then the median.
  const jobs: { key: string; s: Scenario; connections: number }[] = [];
  for (const [li, connections] of LEVELS.entries())
    for (const s of SCENARIOS) if (li === 0 || s.name === 'hit') jobs.push({ key: `${s.name} c${connections}`, s, connections });
  const runs: Record<string, { ours: LoadResult[]; ref: LoadResult[]; cpuOurs: number[]; cpuRef: number[] }> = {};
  const cpuPerRequest = (before: number | null, after: number | null, requests: number) =>
    before !== null && after !== null && requests > 0 ? ((after - before) * 1e6) / TICKS_PER_S / requests : null;
  for (let round = 0; round < ROUNDS; round++) {
    // Fresh references each round: a long-running node:http got up to 15 % slower per request for minutes
    // after some jobs (the control row showed it), which flattered Stadtdaten against it.
    if (round > 0) refs = await restartReferences(refs, files, control);
    pidOf[PORTS.control] = refs.control?.pid;
    for (const job of jobs) {
      const r = (runs[job.key] ??= { ours: [], ref: [], cpuOurs: [], cpuRef: [] });
      const port = job.s.port ?? PORTS.svc;
      const ref = refs[job.s.reference];
      // Which of the two load generators starts first alternates by round: the first gets a few per cent more.
      const both = async (seconds: number) => {
        const start = (p: number) => load(gen, local(p, job.s.url), job.connections, seconds, job.s.request);
        if (round % 2 === 0) return Promise.all([start(port), start(ref.port)]);
        const [theirs, ours] = await Promise.all([start(ref.port), start(port)]);
        return [ours, theirs];
      };
      // Unmeasured load of the same job first: the JIT has compiled its path, and what the previous job left
      // (garbage of MCP calls, a grown heap) is collected here rather than billed to this one.
      if (WARMUP > 0) await both(WARMUP);
      const before = [cpuTicks(pidOf[port]), cpuTicks(ref.proc.pid)];
      const [ours, theirs] = await both(DURATION);
      const after = [cpuTicks(pidOf[port]), cpuTicks(ref.proc.pid)];
      r.ours.push(need(ours, 'our run'));
      r.ref.push(need(theirs, 'the reference run'));
      const cpuOurs = cpuPerRequest(before[0] ?? null, after[0] ?? null, r.ours.at(-1)?.requests ?? 0);
      const cpuRef = cpuPerRequest(before[1] ?? null, after[1] ?? null, r.ref.at(-1)?.requests ?? 0);
      if (cpuOurs !== null) r.cpuOurs.push(cpuOurs);
      if (cpuRef !== null) r.cpuRef.push(cpuRef);
    }
    console.error(`round ${round + 1}/${ROUNDS} done`);
  }
  const staleAfter = stale ? (await body(local(PORTS.stale, WEATHER))).toString() : '';

  const ratio = (a: LoadResult[], b: LoadResult[], f: (r: LoadResult) => number) =>
    +median(a.map((x, i) => f(x) / f(need(b[i], `reference run ${i}`)))).toFixed(2);
  const table = jobs.map(({ key, s }) => {
    const r = need(runs[key], key);
    const throughput = ratio(r.ours, r.ref, (x) => x.rps);
    return {
      scenario: key,
      reference: s.reference === 'node' ? 'node:http' : s.reference === 'bare' ? 'bare Fastify' : 'bare MCP SDK on Fastify',
      /** The control row's "Stadtdaten" is a second bare node:http. */
      control: s.port === PORTS.control,
      /** The in-process row's "Stadtdaten" is bare node:http inside the service's process. */
      in_process: s.port === PORTS.inProcess,
      stadtdaten_rps: Math.round(median(r.ours.map((x) => x.rps))),
      reference_rps: Math.round(median(r.ref.map((x) => x.rps))),
      ratio: throughput,
      target: s.target ?? null,
      met: s.target === undefined ? null : throughput >= s.target,
      p99_ratio: ratio(r.ours, r.ref, (x) => Math.max(x.p99_ms, 0.001)),
      p50_p99_ms: {
        stadtdaten: [median(r.ours.map((x) => x.p50_ms)), median(r.ours.map((x) => x.p99_ms))],
        reference: [median(r.ref.map((x) => x.p50_ms)), median(r.ref.map((x) => x.p99_ms))],
      },
      cpu_us_per_request: {
        stadtdaten: r.cpuOurs.length ? +median(r.cpuOurs).toFixed(2) : null,
        reference: r.cpuRef.length ? +median(r.cpuRef).toFixed(2) : null,
      },
      per_round: r.ours.map((x, i) => +(x.rps / need(r.ref[i], `${key}: reference run ${i}`).rps).toFixed(2)),
      cpu_per_round: { stadtdaten: r.cpuOurs.map((x) => +x.toFixed(1)), reference: r.cpuRef.map((x) => +x.toFixed(1)) },
      errors: r.ours.reduce((a, x) => a + x.errors, 0) + r.ref.reduce((a, x) => a + x.errors, 0),
    };
  });

  // Stampede on a cold key, on an instance of its own with an empty store: the upstream answers
  // slowly so every request arrives while the key is cold.
  const slow = await new FakeUpstream().start();
  registerAllFixtures(slow);
  slow.get('/current_weather', (_req, url) => ({ ...currentWeather(url), delayMs: 500 }));
  startStadtdaten(PORTS.cold, { ...env, ...fakeEnv(slow.url), STORE_PATH: join(dir, 'cold.sqlite'), HISTORY_PATH: join(dir, 'cold-history.sqlite') });
  await waitFor(local(PORTS.cold, '/api/v1/health'));
  const { Agent, request } = await import('undici');
  const agent = new Agent({ connections: 1000 });
  const lat: number[] = [];
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: 1000 }, async () => {
      const t = performance.now();
      const r = await request(local(PORTS.cold, WEATHER), { dispatcher: agent });
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
    upstream_calls: slow.count('/current_weather'),
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
    settings: { duration_s: DURATION, warmup_s: WARMUP, rounds: ROUNDS, connections: LEVELS, paired: true, pinned: PINNING, body_bytes: sizes },
    table,
    stale_answer_after: /"cache_status":"([A-Z-]+)"/.exec(staleAfter)?.[1] ?? null,
    stampede,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.json', JSON.stringify(summary, null, 2));
  console.log(JSON.stringify(summary, null, 2));
  console.log(
    `\nload generator: ${summary.generator}; ${DURATION} s x ${ROUNDS} rounds, each server and its reference loaded at once${PINNING ? ' on one shared core' : ' (not pinned)'}; machine: ${cpus().length} x ${summary.machine.cpu}, ${process.version}`,
  );
  console.log(
    '\n| scenario | reference | Stadtdaten req/s | reference req/s | ratio (target) | p99 ratio | CPU µs/req (ours, reference) |\n|---|---|---|---|---|---|---|',
  );
  for (const r of table) {
    const c = r.cpu_us_per_request;
    console.log(
      `| ${r.scenario} | ${r.reference} | ${r.stadtdaten_rps} | ${r.reference_rps} | ${r.ratio} (${r.target === null ? (r.in_process ? "in-process: node:http in the service's process" : 'control: node:http twice') : `≥ ${r.target}${r.met ? '' : ', NOT MET'}`}) | ${r.p99_ratio} | ${c.stadtdaten ?? '-'}, ${c.reference ?? '-'} |`,
    );
  }
  if (gen !== 'wrk') console.log(`\n${AUTOCANNON_WARNING}`);
  if (!PINNING) console.log(`\n${PINNING_WARNING}`);
  console.log(
    `\nstale: answer after the load ${summary.stale_answer_after}; stampede: ${stampede.upstream_calls} upstream call(s) for ${stampede.requests} cold requests (p50 ${stampede.p50_ms} ms, p99 ${stampede.p99_ms} ms)`,
  );
  await fake.stop();
  await slow.stop();
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
