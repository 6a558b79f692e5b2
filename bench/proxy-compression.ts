/**
 * Compression in the proxy: bytes on the wire and time per request through the shipped nginx configuration
 * (deploy/nginx/stadtdaten.conf, brotli.conf when the module is installed), identity against gzip (and br), for
 * the API docs page with everything it loads, the OpenAPI document and a CSV list. Every answer is a HIT of
 * nginx's cache (warmed first): what is timed is nginx sending, and compressing, cached identity bytes.
 * `node bench/proxy-compression.ts` (BENCH_REQUESTS per path and coding, default 40; BENCH_STATIONS list
 * items, default 2000); figures in bench/README.md "Compression in the proxy".
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { FakeUpstream } from '../test/helpers/fake-upstream.ts';
import { fixtureSettings, registerAllFixtures } from '../test/fixtures/index.ts';
import { fakeEnv, startApp } from '../test/helpers/app.ts';
import { startNginx } from '../test/helpers/proxies.ts';
import { median } from './median.ts';
import { need } from './need.ts';
import { registerStations } from './stations-list.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { examplePath } from '../src/core/data-type.ts';
import { TICKS_PER_S, cpuTicks } from './process-cpu.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);

/** What a browser loads for /docs (the page, Swagger UI and the document it shows), then single documents. */
const GROUPS: [string, string[], Record<string, string>][] = [
  [
    '/docs with its assets',
    [
      '/docs',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/start.js',
      '/docs/assets/favicon-32x32.png',
      '/api/v1/openapi.json?examples=inline',
    ],
    {},
  ],
  ['/api/v1/openapi.json', ['/api/v1/openapi.json'], {}],
  ['/api/v1/openapi.yaml', ['/api/v1/openapi.yaml'], {}],
];
/** A list of STATIONS fuel stations (Tankerkönig answering that many, as in bench/formats.ts), in each format. */
const STATIONS = Number(process.env.BENCH_STATIONS ?? 2000);

/** CPU time (user + system, ms) of nginx's worker processes so far: what compressing costs it, whatever the machine's load. */
function workersCpuMs(master: number): number {
  const children = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  let ticks = 0;
  for (const pid of children) ticks += cpuTicks(Number(pid)) ?? 0;
  return (ticks * 1000) / TICKS_PER_S;
}

function fetchBytes(url: string, headers: Record<string, string>): Promise<{ bytes: number; ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ bytes, ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  registerStations(fake, STATIONS);
  const app = await startApp({ ...fakeEnv(fake.url), ...fixtureSettings() });
  const fuel = examplePath(need(CATALOG.byType.get('fuel-prices'), 'the fuel-prices type'));
  const lists: typeof GROUPS = [
    [`CSV list (${STATIONS} fuel stations)`, [fuel], { accept: 'text/csv' }],
    [`JSON list (${STATIONS} fuel stations)`, [fuel], {}],
    [`GeoJSON list (${STATIONS} fuel stations)`, [fuel], { accept: 'application/geo+json' }],
  ];
  const nginx = await startNginx(new URL(app.url).host);
  const codings = ['identity', 'gzip', ...(nginx.brotli ? ['br'] : [])];
  try {
    const rows: string[] = [];
    for (const [name, paths, headers] of [...GROUPS, ...lists]) {
      const cells: string[] = [];
      let identityBytes = 0;
      for (const coding of codings) {
        let bytes = 0;
        const times: number[] = [];
        // Warm: the instance answers once, nginx caches; then the timed requests are HITs.
        for (const p of paths) await fetchBytes(nginx.base + p, { ...headers, 'accept-encoding': coding });
        const cpuBefore = workersCpuMs(nginx.pid);
        for (let i = 0; i < REQUESTS; i++) {
          let ms = 0;
          bytes = 0;
          for (const p of paths) {
            const r = await fetchBytes(nginx.base + p, { ...headers, 'accept-encoding': coding });
            if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
            bytes += r.bytes;
            ms += r.ms;
          }
          times.push(ms);
        }
        const cpu = (workersCpuMs(nginx.pid) - cpuBefore) / REQUESTS;
        if (coding === 'identity') identityBytes = bytes;
        const share = coding === 'identity' ? '' : ` (${((100 * bytes) / identityBytes).toFixed(1)} %)`;
        cells.push(`${(bytes / 1024).toFixed(1)} KB${share}, ${median(times).toFixed(1)} ms, nginx CPU ${cpu.toFixed(1)} ms`);
      }
      rows.push(`| ${name} | ${cells.join(' | ')} |`);
    }
    console.log(`| answer (through nginx, cache HIT) | ${codings.join(' | ')} |`);
    console.log(`|---|${codings.map(() => '---').join('|')}|`);
    for (const r of rows) console.log(r);
    console.log(
      `\nbytes on the wire; median time of ${REQUESTS} sequential requests per cell (one connection each, loopback); nginx CPU: its workers' user+system time per request (10 ms ticks, averaged); Node ${process.version}`,
    );
  } finally {
    await nginx.stop();
    await app.close();
    await fake.stop();
  }
}

await main();
