/**
 * One load run against one URL: wrk (a native load generator, Debian package `wrk`) when it is on
 * the PATH, else autocannon. autocannon is a Node program that saturates near a bare Fastify
 * route's rate on two cores, which squeezes every ratio towards 1; its figures carry a warning.
 */
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { need } from './need.ts';
import { onLoadCpus } from './pin.ts';

export interface LoadResult {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  /** Socket errors plus non-2xx/3xx answers. */
  errors: number;
  /** Requests answered in the run. */
  requests: number;
}

export type Generator = 'wrk' | 'autocannon';

/** A request other than a plain GET: the MCP call (a POST with a JSON body), a GET with headers (Accept-Encoding, X-Forwarded-For). */
export interface LoadRequest {
  method: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
}

export function pickGenerator(): Generator {
  if (process.env.BENCH_GENERATOR === 'autocannon') return 'autocannon';
  const probe = spawnSync(process.env.WRK ?? 'wrk', ['--version'], { encoding: 'utf8' });
  return probe.error ? 'autocannon' : 'wrk';
}

export const AUTOCANNON_WARNING =
  'WARNING: wrk not found (install it with `apt-get install -y wrk`); these figures come from autocannon, a Node load generator that saturates near the bare route and compresses the ratios.';

export function load(gen: Generator, url: string, connections: number, seconds: number, request?: LoadRequest): Promise<LoadResult> {
  return gen === 'wrk' ? loadWrk(url, connections, seconds, request) : loadAutocannon(url, connections, seconds, request);
}

/** A wrk script that sends `request` (wrk's own Lua interface: method, body, headers). */
function wrkScript(request: LoadRequest): string {
  const file = join(mkdtempSync(join(tmpdir(), 'stadtdaten-wrk-')), 'request.lua');
  const lines = [`wrk.method = ${JSON.stringify(request.method)}`];
  if (request.body !== undefined) lines.push(`wrk.body = ${JSON.stringify(request.body)}`);
  for (const [k, v] of Object.entries(request.headers)) lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function loadWrk(url: string, connections: number, seconds: number, request?: LoadRequest): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const script = request ? ['-s', wrkScript(request)] : [];
    // On the load generators' cores (bench/pin.ts), away from the servers' core.
    const [command, args] = onLoadCpus(process.env.WRK ?? 'wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...script, url]);
    const p = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}: ${out}`));
      try {
        resolve(parseWrk(out));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyMs(out: string, pct: string): number {
  const m = new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
  if (!m) throw new Error(`no ${pct}% latency in wrk output:\n${out}`);
  return +(Number(m[1]) * need(UNIT_MS[need(m[2], 'latency unit')], 'latency unit factor')).toFixed(3);
}

export function parseWrk(out: string): LoadResult {
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(out);
  if (!rps) throw new Error(`no Requests/sec in wrk output:\n${out}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = (non2xx ? Number(non2xx[1]) : 0) + (sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  const total = /^\s*(\d+) requests in /m.exec(out);
  return { rps: Math.round(Number(rps[1])), p50_ms: latencyMs(out, '50'), p99_ms: latencyMs(out, '99'), errors, requests: Number(total?.[1] ?? 0) };
}

function loadAutocannon(url: string, connections: number, seconds: number, request?: LoadRequest): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, pipelining: 1, ...request }, (err, r) =>
      err
        ? reject(err instanceof Error ? err : new Error(String(err)))
        : resolve({
            rps: Math.round(r.requests.average),
            p50_ms: r.latency.p50,
            p99_ms: r.latency.p99,
            errors: r.errors + r.non2xx,
            requests: r.requests.total,
          }),
    );
  });
}
