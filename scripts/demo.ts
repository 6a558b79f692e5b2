/**
 * `npm run demo`: the service without internet. A fake upstream on loopback serves every
 * recorded/real-format fixture at the upstreams' real paths, the jobs run once against it, and
 * the service listens on HOST:PORT (default 127.0.0.1:3000) with every answer marked meta.demo.
 */
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../src/app.ts';
import { loadAppConfig } from '../src/app-config.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { SOURCES } from '../src/sources/index.ts';
import { jobsFor } from '../src/jobs/registry.ts';
import { refreshPois } from '../src/jobs/pois/refresh.ts';
import { POI_TYPES } from '../src/sources/overpass/poi-types.ts';
import { POIS_PRECOMPUTE_JOB } from '../src/jobs/pois-precompute.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { FakeUpstream } from '../test/helpers/fake-upstream.ts';
import { registerAllFixtures } from '../test/fixtures/index.ts';
import { fakeEnv } from '../test/helpers/app.ts';
import { coveredCities, examplePath, routePath, type DataType } from '../src/core/data-type.ts';
import { GENESIS_FIXTURE_CREDENTIALS } from '../test/fixtures/genesis/routes.ts';

export interface Demo {
  url: string;
  fake: FakeUpstream;
  built: App;
  close(): Promise<void>;
}

/** Cities whose precomputed data the demo fills (the fixtures are modelled on them). */
const DEMO_POI_CITIES = ['muenchen', 'berlin'];

export async function startDemo(opts: { host?: string; port?: number; quiet?: boolean } = {}): Promise<Demo> {
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  // Sources that need credentials get the fixture's (the fakes check them like the real APIs).
  const credentials: Record<string, string> = {};
  for (const s of SOURCES) for (const name of s.credentials ?? []) credentials[name] = 'demo-credential';
  const env = {
    ...process.env,
    ...fakeEnv(fake.url),
    ...credentials,
    ...GENESIS_FIXTURE_CREDENTIALS,
    DEMO: 'true',
    JOBS_ENABLED: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const config = loadAppConfig(env);
  const built = await buildApp(config, { store: new SqliteStore(':memory:'), logger: !opts.quiet });
  const log = (msg: string) => {
    if (!opts.quiet) console.log(`demo: ${msg}`);
  };
  const signal = new AbortController().signal;
  for (const job of jobsFor(config)) {
    if (job === POIS_PRECOMPUTE_JOB || !job.enabled(built.rt)) continue;
    try {
      await job.run(built.rt, log, signal);
      log(`${job.name} filled the store`);
    } catch (err) {
      log(`${job.name} failed: ${String(err)}`);
    }
  }
  const targets = DEMO_POI_CITIES.flatMap((slug) => POI_TYPES.map((type) => ({ city: CITY_BY_SLUG.get(slug)!, type })));
  await refreshPois(built.rt, targets, { pauseMs: 0, backoffMs: 10, maxRetries: 0, maxConsecutiveFailures: 1000 });
  await built.app.listen({ host: opts.host ?? config.host, port: opts.port ?? config.port });
  const url = `http://${opts.host ?? config.host}:${(built.app.server.address() as AddressInfo).port}`;
  return {
    url,
    fake,
    built,
    async close() {
      await built.close();
      await fake.stop();
    },
  };
}

/** The fixtures are modelled on real answers for a handful of cities; each type is tried on them. */
export const DEMO_CITIES = [
  'muenchen',
  'koeln',
  'berlin',
  'essen',
  'stuttgart',
  'hamburg',
  'braunschweig',
  'bonn',
  'freiburg-im-breisgau',
  'frankfurt-am-main',
];
/** Sample values for path and required query parameters, so every route can be called. */
const SAMPLES: Record<string, string> = { eva: '8000098', trip_id: 'unknown-trip', route_id: 'unknown-route' };

export function samplePath(dt: DataType, city: string): string {
  // The declared example city is asked with the example's parameters (e.g. fuel-prices?fuel=diesel).
  if (city === dt.example.city && dt.example.params) return examplePath(dt);
  let path = routePath(dt)
    .replace(/\{(slug|city)\}/g, city)
    .replace(/\{(\w+)\}/g, (_, k: string) => SAMPLES[k] ?? 'x');
  const required = (dt.params ?? []).filter((p) => p.required && p.in !== 'path');
  if (required.length) path += '?' + required.map((p) => `${p.name}=${encodeURIComponent(p.enum?.[0] ?? SAMPLES[p.name] ?? 'x')}`).join('&');
  return path;
}

/** Per data type the first demo city whose answer is `ok` (or the last one tried), with that answer's status. */
export async function probe(demo: Demo): Promise<{ type: string; path: string; status: string; http: number; demo: unknown }[]> {
  const out = [];
  for (const dt of demo.built.rt.catalog.all) {
    let last = { type: dt.type, path: '', status: 'none', http: 0, demo: undefined as unknown };
    for (const city of coveredCities(dt) ?? DEMO_CITIES) {
      const path = samplePath(dt, city);
      const res = await fetch(demo.url + path);
      const body = (await res.json().catch(() => null)) as { meta?: { source_status?: string; demo?: unknown } } | null;
      last = { type: dt.type, path, status: body?.meta?.source_status ?? 'unparseable', http: res.status, demo: body?.meta?.demo };
      if (last.status === 'ok') break;
    }
    out.push(last);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const demo = await startDemo();
  console.log(`\nStadtdaten demo on ${demo.url} (fake upstreams on ${demo.fake.url}; answers carry meta.demo=true). Every data type:`);
  for (const p of await probe(demo)) console.log(`  ${p.status.padEnd(9)} ${demo.url}${p.path}`);
  console.log(`  ${demo.url}/api/v1/cities/muenchen/overview\n  ${demo.url}/docs\n`);
  const stop = async () => {
    await demo.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
