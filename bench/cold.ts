/**
 * Cold-path latency against the running server (`node bench/cold.ts`): the fake
 * upstream answers every Bright Sky call after 100 ms. Per run, on a fresh server and store:
 * one city's cold weather, compare over the 28 core cities (cold) and, with the air upstream
 * hung, the overview of a city whose weather is warm. BENCH_RUNS (default 3) runs. The server runs
 * compiled, as `npm start` runs it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeUpstream } from '../test/helpers/fake-upstream.ts';
import { currentWeather } from '../test/fixtures/brightsky/routes.ts';
import { registerAllFixtures } from '../test/fixtures/index.ts';
import { fakeEnv } from '../test/helpers/app.ts';
import { privateStores } from '../test/helpers/stores.ts';
import { CITIES } from '../src/cities/register.ts';
import { npmStartArgs } from './npm-start.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = 3911;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CORE = CITIES.filter((c) => c.core).map((c) => c.slug);

async function timed(url: string): Promise<{ ms: number; json: { data: unknown; meta: Record<string, unknown> } }> {
  const t = performance.now();
  const r = await fetch(url);
  const json = (await r.json()) as { data: unknown; meta: Record<string, unknown> };
  if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
  return { ms: +(performance.now() - t).toFixed(1), json };
}

async function main() {
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  // Bright Sky as the fixtures answer it (Freiburg's recording for Freiburg, no station elsewhere), each call after 100 ms.
  const delayMs = Number(process.env.BENCH_UPSTREAM_DELAY_MS ?? 100);
  fake.get('/current_weather', async (_req, url) => {
    await sleep(delayMs);
    return currentWeather(url);
  });
  // The air upstream never answers within the overview's budget.
  fake.get(/^\/api\/air-data\/v3\//, { delayMs: 10_000, body: '{}' });
  const rows = [];
  for (let run = 0; run < RUNS; run++) {
    const stores = privateStores(mkdtempSync(join(tmpdir(), 'stadtdaten-cold-')));
    const env = { ...process.env, ...fakeEnv(fake.url), HOST: '127.0.0.1', PORT: String(PORT), JOBS_ENABLED: 'false', LOG_LEVEL: 'warn', ...stores };
    const svc = spawn(process.execPath, npmStartArgs(), { env, stdio: ['ignore', 'inherit', 'inherit'] });
    try {
      for (let i = 0; i < 300; i++) {
        if (
          await fetch(`http://127.0.0.1:${PORT}/api/v1/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        await sleep(50);
      }
      const base = `http://127.0.0.1:${PORT}/api/v1`;
      // First requests compile the code paths (cold code is not what this compares): other, non-core cities.
      await timed(`${base}/cities/ulm/weather`);
      await timed(`${base}/compare?resource=weather&cities=trier,fuerth,erlangen`);
      const one = await timed(`${base}/cities/jena/weather`);
      const compare = await timed(`${base}/compare?resource=weather&cities=${CORE.join(',')}`);
      const overview = await timed(`${base}/cities/jena/overview`);
      const air = (overview.json.data as { highlights: { air: { error?: string } } }).highlights.air;
      rows.push({
        one_city_cold_ms: one.ms,
        compare_28_cold_ms: compare.ms,
        ratio: +(compare.ms / one.ms).toFixed(2),
        overview_air_hung_ms: overview.ms,
        air: air.error ?? 'ok',
      });
    } finally {
      svc.kill('SIGTERM');
      await new Promise((r) => svc.once('exit', r));
    }
  }
  console.table(rows);
  await fake.stop();
  process.exit(0);
}

void main();
