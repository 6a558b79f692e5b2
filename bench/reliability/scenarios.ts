import { at } from '../../test/helpers/json.ts';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { FakeUpstream } from '../../test/helpers/fake-upstream.ts';
import { registerAllFixtures } from '../../test/fixtures/index.ts';
import { fakeEnv, startApp, type TestApp } from '../../test/helpers/app.ts';
import { RedisProcess } from '../../test/helpers/redis-server.ts';
import { buildCatalog, CATALOG } from '../../src/catalog/index.ts';
import { routePath, type DataType } from '../../src/core/data-type.ts';
import { withSources } from '../../test/helpers/swap-sources.ts';
import type { SourceDecl } from '../../src/core/source.ts';
import { RedisStore } from '../../src/store/redis.ts';
import { ResilientStore } from '../../src/store/resilient.ts';
import { SqliteStore } from '../../src/store/sqlite.ts';
import { fuzz, routesOf, type FuzzStats } from './fuzz.ts';
import { FAULTS } from './faults.ts';

/**
 * The reliability scenarios, shared by `npm run reliability` (full size) and
 * test/reliability.test.ts (a short version inside `npm test`). Everything runs on loopback
 * against the fake upstream serving the recorded fixtures.
 */

export const BUDGET_MS = 2000;
/** Scheduling slack on a loaded machine: answers must come at the budget, not at the upstream timeouts (8-60 s). */
export const SLACK_MS = 1500;
const CREDENTIALS = {
  DB_CLIENT_ID: 'id',
  DB_API_KEY: 'key',
  RMV_API_KEY: 'key',
  HVV_GEOFOX_USER: 'user',
  HVV_GEOFOX_PASSWORD: 'password',
};

/** Breakers with a 2 s cool-down, so recovery fits in a run (same sources, same adapters). */
const quick = new Map<string, SourceDecl>(CATALOG.sources.map((s) => [s.id, { ...s, breaker: { threshold: 3, cooldownSeconds: 2 } }]));
const quickSources = CATALOG.sources.map((s) => quick.get(s.id) ?? s);
const quickCatalog = buildCatalog(CATALOG.all.map((dt): DataType => withSources(dt, (s) => quick.get(s.id) ?? s)));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Target {
  readonly fake = new FakeUpstream();
  app!: TestApp;
  redis: RedisProcess | null = null;

  async start(env: Record<string, string> = {}, redis = false): Promise<this> {
    await this.fake.start();
    registerAllFixtures(this.fake);
    let store;
    if (redis) {
      this.redis = await new RedisProcess().start();
      const prefix = `reliability:${randomUUID()}:`;
      store = new ResilientStore(new RedisStore(this.redis.url, { keyPrefix: prefix }), () => {});
      env = { ...env, REDIS_URL: this.redis.url, REDIS_KEY_PREFIX: prefix };
    } else {
      store = new SqliteStore(':memory:');
    }
    this.app = await startApp(
      { ...fakeEnv(this.fake.url), ...CREDENTIALS, REQUEST_BUDGET_MS: String(BUDGET_MS), OVERVIEW_BUDGET_MS: '800', ...env },
      { store, catalog: quickCatalog, sources: quickSources },
    );
    return this;
  }

  get port(): number {
    return (this.app.app.server.address() as AddressInfo).port;
  }

  async stop() {
    this.fake.dropConnections();
    await this.app.close();
    await this.fake.stop();
    await this.redis?.kill();
  }
}

export async function runFuzz(requests: number, seed: number): Promise<FuzzStats & { routes: number }> {
  const t = await new Target().start();
  try {
    const openapi = (await t.app.get('/api/v1/openapi.json')).json;
    const routes = routesOf(openapi as Parameters<typeof routesOf>[0]);
    const stats = await fuzz({ port: t.port, routes, requests, seed, concurrency: 16, maxMs: BUDGET_MS + SLACK_MS });
    return { ...stats, routes: routes.length };
  } finally {
    await t.stop();
  }
}

/** Every data-type route for the given cities (global ones with a sample id), plus the composite routes. */
export function probePaths(cities: readonly string[], eva = '8000105'): string[] {
  const paths: string[] = [];
  for (const dt of CATALOG.all) {
    const template = routePath(dt);
    if (dt.scope === 'global') paths.push(template.replace('{eva}', eva));
    else if (template.includes('{city}')) for (const c of cities) paths.push(template.replace('{city}', c));
    else paths.push(template);
  }
  for (const c of cities) paths.push(`/api/v1/cities/${c}/overview`);
  paths.push(`/api/v1/compare?resource=weather&cities=${cities.join(',')}`);
  return [...new Set(paths)];
}

export interface FaultResult {
  fault: string;
  requests: number;
  statuses: Record<string, number>;
  maxMs: number;
  violations: string[];
  /** Breakers open after the fault was lifted, the cool-down passed and the routes were asked again (beyond those open in the healthy baseline). */
  stillOpen: string[];
  openedDuringFault: number;
}

async function openBreakers(app: TestApp): Promise<string[]> {
  const r = await app.get('/api/v1/sources?limit=200');
  return (at(r.json, 'data') as { source: string; breaker_state: string }[]).filter((s) => s.breaker_state === 'OPEN').map((s) => s.source);
}

async function askAll(app: TestApp, paths: string[], concurrency = 12) {
  const out: { path: string; status: number; ms: number; body: string; type: string }[] = [];
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < paths.length) {
        const path = paths[i++];
        if (path === undefined) break;
        const started = Date.now();
        const r = await app.get(path);
        out.push({ path, status: r.status, ms: Date.now() - started, body: r.text, type: r.headers.get('content-type') ?? '' });
      }
    }),
  );
  return out;
}

/**
 * One fault class: a healthy baseline on `baselineCities`, then the fault on other cities (so it
 * meets cache MISSes, then the same keys again with breakers opening), then the fault lifted,
 * the cool-down waited and the routes asked again: every breaker the fault opened must close.
 */
export async function runFault(name: string, baselineCities: readonly string[], faultCities: readonly string[], rounds = 2): Promise<FaultResult> {
  const fault = FAULTS[name];
  if (!fault) throw new Error(`unknown fault class ${name}`);
  const t = await new Target().start({ RATE_LIMIT_ENABLED: 'false' });
  const paths = probePaths(faultCities, '8000106');
  try {
    // Healthy baseline: breakers some fixture gap opens anyway are not the fault's doing.
    await askAll(t.app, probePaths(baselineCities));
    const baseline = new Set(await openBreakers(t.app));
    t.fake.intercept = fault;
    const violations: string[] = [];
    const statuses: Record<string, number> = {};
    let maxMs = 0;
    let requests = 0;
    // Fresh keys (other cities) so the fault meets MISSes, and the same keys again (STALE, breakers open).
    for (let round = 0; round < rounds; round++) {
      for (const a of await askAll(t.app, paths)) {
        requests++;
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        maxMs = Math.max(maxMs, a.ms);
        if (a.ms > BUDGET_MS + SLACK_MS) violations.push(`${a.path}: ${a.ms} ms`);
        if (a.status >= 500 && !(a.status === 503 && a.body.includes('"code":"upstream_unavailable"'))) violations.push(`${a.path}: ${a.status}`);
        if (a.status >= 400 && !a.type.startsWith('application/problem+json')) violations.push(`${a.path}: ${a.status} without a problem document`);
      }
    }
    const openedDuringFault = (await openBreakers(t.app)).filter((s) => !baseline.has(s)).length;
    t.fake.intercept = null;
    t.fake.dropConnections();
    await sleep(2200);
    await askAll(t.app, paths);
    await sleep(300);
    await askAll(t.app, paths);
    const stillOpen = (await openBreakers(t.app)).filter((s) => !baseline.has(s));
    return { fault: name, requests, statuses, maxMs, violations, stillOpen, openedDuringFault };
  } finally {
    await t.stop();
  }
}

export interface RedisLossResult {
  requests: number;
  failed: number;
  failures: string[];
  statuses: Record<string, number>;
  killedAtMs: number;
  restartedAtMs: number;
  durationMs: number;
}

/** Load on a Redis-backed instance; Redis is SIGKILLed a quarter in and started again halfway. */
export async function runRedisLoss(durationMs: number, concurrency = 16): Promise<RedisLossResult> {
  const t = await new Target().start({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '10000000' }, true);
  const cities = ['berlin', 'hamburg', 'muenchen', 'koeln', 'essen', 'bonn', 'dortmund', 'leipzig'];
  const paths = cities.flatMap((c) => [`/api/v1/cities/${c}`, `/api/v1/cities/${c}/weather`, `/api/v1/cities/${c}/stations`]);
  paths.push('/api/v1/cities', '/api/v1/health', '/api/v1/sources');
  const result: RedisLossResult = { requests: 0, failed: 0, failures: [], statuses: {}, killedAtMs: durationMs / 4, restartedAtMs: durationMs / 2, durationMs };
  try {
    for (const p of paths) await t.app.get(p); // warm: the load then is mostly HITs, as in production
    const started = Date.now();
    const chaos = (async () => {
      await sleep(result.killedAtMs);
      await t.redis!.kill();
      await sleep(result.restartedAtMs - result.killedAtMs);
      await t.redis!.start();
    })();
    let k = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() - started < durationMs) {
          const path = paths[k++ % paths.length] ?? '/api/v1/health';
          result.requests++;
          try {
            const r = await t.app.get(path);
            result.statuses[r.status] = (result.statuses[r.status] ?? 0) + 1;
            if (r.status >= 400) {
              result.failed++;
              if (result.failures.length < 20) result.failures.push(`${path}: ${r.status} ${r.text.slice(0, 120)}`);
            }
          } catch (err) {
            result.failed++;
            if (result.failures.length < 20) result.failures.push(`${path}: ${String(err)}`);
          }
        }
      }),
    );
    await chaos;
    return result;
  } finally {
    await t.stop();
  }
}
