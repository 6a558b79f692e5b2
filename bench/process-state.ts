/**
 * What the state of a process costs Node's HTTP path (bench/README.md, "lane"): two identical bare
 * node:http servers (bench/process-state/server.js), one of them in a process put in PROCESS_STATE first,
 * loaded at the same time on one shared core as `npm run bench` pairs its rows (bench/pin.ts), for
 * BENCH_ROUNDS rounds of BENCH_DURATION s after a BENCH_WARMUP s warm-up, fresh processes each round.
 * Usage: node bench/process-state.ts [none|heap|fastify|headers|server|proxy ...] (default: all
 * six); PROCESS_STATE_NODE_ARGS adds Node flags to the process in a state.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { load, pickGenerator } from './load.ts';
import { median } from './median.ts';
import { PINNING, PINNING_WARNING, pinServer } from './pin.ts';
import { TICKS_PER_S, cpuTicks } from './process-cpu.ts';

/** CPU seconds of a running server, read as bench/run.ts reads them. */
const cpuSeconds = (pid: number | undefined) => (cpuTicks(pid) ?? NaN) / TICKS_PER_S;

const STATES = process.argv.slice(2).length ? process.argv.slice(2) : ['none', 'heap', 'fastify', 'headers', 'server', 'proxy'];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = 64;
const PORTS = { state: 3971, reference: 3972 };

function start(state: string, port: number): Promise<ChildProcess> {
  // Node or V8 flags to try on the process in a state (the reference runs without): bench/README.md, "lane".
  const execArgv = state === 'none' ? [] : (process.env.PROCESS_STATE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const p = fork(new URL('./process-state/server.js', import.meta.url), [String(port)], { env: { ...process.env, PROCESS_STATE: state }, execArgv });
  return new Promise((resolve) => p.once('message', () => resolve(p)));
}

// The `server` state runs Stadtdaten's compiled server: build dist/ first when it is missing or stale (as bench/run.ts).
if (STATES.includes('server')) spawnSync(process.execPath, ['-e', "import('./scripts/start.js').then((m) => m.ensureBuilt())"], { stdio: 'inherit' });
const gen = pickGenerator();
if (!PINNING) console.error(PINNING_WARNING);
console.log(`| process state | ratio to a bare process (median of ${ROUNDS}) | per round | CPU µs/req (state, bare) |\n|---|---|---|---|`);
for (const state of STATES) {
  const ratios: number[] = [];
  const cpu: [number[], number[]] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    const [a, b] = await Promise.all([start(state, PORTS.state), start('none', PORTS.reference)]);
    pinServer(a.pid);
    pinServer(b.pid);
    const url = (port: number) => `http://127.0.0.1:${port}/api/v1/cities/freiburg-im-breisgau/weather`;
    await Promise.all([load(gen, url(PORTS.state), CONNECTIONS, WARMUP), load(gen, url(PORTS.reference), CONNECTIONS, WARMUP)]);
    const before = [cpuSeconds(a.pid!), cpuSeconds(b.pid!)];
    // The load that starts first gets a few per cent more: alternate by round, as bench/run.ts does.
    const runs = round % 2 === 0 ? [PORTS.state, PORTS.reference] : [PORTS.reference, PORTS.state];
    const results = await Promise.all(runs.map((p) => load(gen, url(p), CONNECTIONS, DURATION)));
    const [ra, rb] = round % 2 === 0 ? results : [results[1]!, results[0]!];
    cpu[0].push(((cpuSeconds(a.pid!) - before[0]!) * 1e6) / ra!.requests);
    cpu[1].push(((cpuSeconds(b.pid!) - before[1]!) * 1e6) / rb!.requests);
    ratios.push(ra!.requests / rb!.requests);
    await Promise.all([a, b].map((p) => new Promise((r) => p.once('exit', r).kill())));
  }
  const f = (x: number) => x.toFixed(2);
  console.log(`| ${state} | ${f(median(ratios))} | ${ratios.map(f).join(', ')} | ${f(median(cpu[0]))}, ${f(median(cpu[1]))} |`);
}
