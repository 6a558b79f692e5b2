/**
 * Host/header/query fuzz with memory tracking. The service runs in a child process with the V8 flags
 * of `npm start`, on the fake upstream serving every fixture, jobs and the rate limit off (the flood
 * is one client), stores in memory. After a warm-up that builds the documents once: the issue's
 * reproduction (the OpenAPI document with 200 new Hosts, then 50 with `?examples=inline`), then
 * ATTACK_FUZZ_REQUESTS (default 2,000) requests with random Host, Accept, query and path. Resident
 * memory is sampled every 100 answers; start and end are taken after forced collections.
 */
import { rssMb } from '../../process-memory.ts';
import { npmStartArgs } from '../../npm-start.ts';
import type { AttackRow, Probe } from '../row.ts';
import { startMemoryServer, type MemorySample } from '../../../test/helpers/memory-server.ts';
import { DOCUMENT_PATHS, FUZZ_DATA_PATHS, flood, fuzzRequest, seeded, send } from '../../../test/helpers/fuzz-requests.ts';

const REQUESTS = Number(process.env.ATTACK_FUZZ_REQUESTS ?? 2000);
const BOUND_MB = 20;
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

export const probe: Probe = async () => {
  const flags = npmStartArgs().filter((a) => a.startsWith('--'));
  const server = await startMemoryServer({}, flags);
  const rows: AttackRow[] = [];
  const row = (measure: string, value: string, verdict: string) => rows.push({ probe: 'host-fuzz', measure, value, verdict });
  const settled = async (): Promise<MemorySample> => {
    const s = [await server.measure(), await server.measure(), await server.measure()];
    return { rss: Math.min(...s.map((x) => x.rss)), heapUsed: Math.min(...s.map((x) => x.heapUsed)), external: Math.min(...s.map((x) => x.external)) };
  };
  try {
    for (const path of [...DOCUMENT_PATHS, ...FUZZ_DATA_PATHS, ...FUZZ_DATA_PATHS]) await send(server.url, { path, headers: { host: 'warm.example' } });
    const start = await settled();

    // The reproduction: every request a new Host.
    const timed = async (n: number, path: string, prefix: string) => {
      const ms: number[] = [];
      for (let i = 1; i <= n; i++) {
        const t = performance.now();
        await send(server.url, { path, headers: { host: `${prefix}${i}.example` } });
        ms.push(performance.now() - t);
      }
      return ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
    };
    const jsonMs = await timed(200, '/api/v1/openapi.json', 'h');
    const inlineMs = await timed(50, '/api/v1/openapi.json?examples=inline', 'i');
    const afterHosts = await settled();
    row('openapi.json, 200 new Hosts: median time', `${jsonMs.toFixed(0)} ms`, 'built once: served');
    row('openapi.json?examples=inline, 50 new Hosts: median time', `${inlineMs.toFixed(0)} ms`, 'built once: served');
    const hostGrowth = afterHosts.rss - start.rss;
    row(
      'RSS after GC, 250 new Hosts',
      `${mb(start.rss)} -> ${mb(afterHosts.rss)}`,
      `≤ ${BOUND_MB} MB growth: ${hostGrowth < BOUND_MB * MB ? 'held' : 'FAILED'}`,
    );

    // The fuzz flood, resident memory sampled as it goes.
    const rnd = seeded(7);
    let peak = rssMb(server.pid);
    const began = performance.now();
    const statuses = await flood(
      server.url,
      Array.from({ length: REQUESTS }, () => fuzzRequest(rnd, FUZZ_DATA_PATHS)),
      8,
      (done) => {
        if (done % 100 === 0) peak = Math.max(peak, rssMb(server.pid));
      },
    );
    const seconds = (performance.now() - began) / 1000;
    const end = await settled();
    const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
    const cut = statuses.get(0) ?? 0;
    row(
      `fuzz: ${REQUESTS} requests (random Host, Accept, query, path)`,
      `${seconds.toFixed(0)} s, ${(REQUESTS / seconds).toFixed(0)}/s`,
      `${fivexx} answers 5xx, ${cut} unanswered: ${fivexx + cut === 0 ? 'held' : 'FAILED'}`,
    );
    row(
      'fuzz: RSS start (after GC) / peak / end (after GC)',
      `${mb(start.rss)} / ${peak} MB / ${mb(end.rss)}`,
      `end ≤ start + ${BOUND_MB} MB: ${end.rss - start.rss < BOUND_MB * MB ? 'held' : 'FAILED'}`,
    );
    row(
      'fuzz: heap after GC, start -> end',
      `${mb(start.heapUsed)} -> ${mb(end.heapUsed)}`,
      `≤ ${BOUND_MB} MB growth: ${end.heapUsed - start.heapUsed < BOUND_MB * MB ? 'held' : 'FAILED'}`,
    );
  } finally {
    await server.stop();
  }
  return rows;
};
