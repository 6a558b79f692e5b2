import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { registerBrightSky } from './fixtures/brightsky/routes.ts';
import { buildCatalog } from '../src/catalog/index.ts';
import { CATALOG } from '../src/catalog/index.ts';

const weather = CATALOG.byType.get('weather')!;
import { BRIGHTSKY } from '../src/sources/brightsky/source.ts';
import { SOURCES } from '../src/sources/index.ts';
import { RedisStore } from '../src/store/redis.ts';
import { ResilientStore } from '../src/store/resilient.ts';
import type { DataType } from '../src/core/data-type.ts';
import { at, list } from './helpers/json.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const source = { ...BRIGHTSKY, breaker: { threshold: 3, cooldownSeconds: 30 } };
const sources = SOURCES.map((s) => (s.id === BRIGHTSKY.id ? source : s));
const catalog = buildCatalog([{ ...weather, source } as DataType]);

let fake: FakeUpstream;
before(async () => {
  fake = await new FakeUpstream().start();
  registerBrightSky(fake);
});
after(async () => {
  await fake.stop();
});

/** Two instances sharing one Redis (own key prefix per test), as when scaled out. */
async function pair(): Promise<[TestApp, TestApp]> {
  const prefix = `test:${randomUUID()}:`;
  const mk = () => startApp(fakeEnv(fake.url), { catalog, sources, store: new ResilientStore(new RedisStore(REDIS_URL, { keyPrefix: prefix })) });
  return [await mk(), await mk()];
}

describe('scale-out with Redis', () => {
  test('several instances refreshing the same key make one upstream call', async (t) => {
    const [a, b] = await pair();
    t.after(async () => {
      await a.close();
      await b.close();
    });
    fake.reset();
    fake.get('/current_weather', { file: 'brightsky/current_weather-feldberg-2022-07-24.json', delayMs: 300 });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).get('/api/v1/cities/mainz/weather')));
    assert.ok(results.every((r) => r.status === 200));
    assert.equal(fake.count('/current_weather'), 1);
  });

  test('breaker state is shared: an opening on one instance short-circuits the other', async (t) => {
    const [a, b] = await pair();
    t.after(async () => {
      await a.close();
      await b.close();
      fake.mode = 'normal';
    });
    fake.reset();
    registerBrightSky(fake);
    fake.mode = 'error';
    for (const city of ['ulm', 'hamm', 'siegen']) await a.get(`/api/v1/cities/${city}/weather`);
    const seen = list<{ source: string }>((await b.get('/api/v1/sources?limit=all')).json, 'data').find((s: { source: string }) => s.source === BRIGHTSKY.id);
    assert.equal(at(seen, 'breaker_state'), 'OPEN');
    const hits = fake.count();
    const r = await b.get('/api/v1/cities/trier/weather');
    assert.equal(r.status, 503);
    assert.equal(fake.count(), hits, 'instance b did not call the upstream');
  });
});

describe('Redis outage at run time', () => {
  let redis: ChildProcess | null = null;
  const port = 20000 + Math.floor(Math.random() * 20000);
  const startRedis = async () => {
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (
        await new Promise<boolean>((res) => {
          const s = createConnection(port, '127.0.0.1', () => {
            s.end();
            res(true);
          });
          s.on('error', () => res(false));
        })
      )
        return;
      await sleep(50);
    }
    throw new Error('redis-server did not start');
  };
  const stopRedis = async () => {
    const p = redis;
    redis = null;
    if (!p) return;
    await new Promise((r) => {
      p.once('exit', r);
      p.kill('SIGKILL');
    });
  };
  after(stopRedis);

  test('Redis stopped and restarted under load: no failed request, health tells, recovery by itself', async (t) => {
    await startRedis();
    const app = await startApp(fakeEnv(fake.url), {
      catalog,
      sources,
      store: new ResilientStore(new RedisStore(`redis://127.0.0.1:${port}`, { commandTimeoutMs: 200 })),
    });
    t.after(() => app.close());
    fake.reset();
    registerBrightSky(fake);
    assert.equal(at((await app.get('/api/v1/health')).json, 'data.store.reachable'), true);

    const cities = ['berlin', 'hamburg', 'koeln', 'bonn', 'kiel', 'jena', 'trier', 'ulm', 'hagen', 'herne', 'moers', 'neuss'];
    const failures: string[] = [];
    let done = 0;
    let stop = false;
    const load = (async () => {
      let i = 0;
      while (!stop) {
        const batch = await Promise.all(Array.from({ length: 8 }, () => app.get(`/api/v1/cities/${cities[i++ % cities.length]}/weather`)));
        for (const r of batch) {
          done++;
          if (r.status !== 200) failures.push(`${r.status} ${r.text.slice(0, 120)}`);
        }
      }
    })();
    await sleep(300);
    await stopRedis();
    await sleep(800);
    const down = await app.get('/api/v1/health');
    assert.equal(down.status, 200);
    assert.equal(at(down.json, 'data.store.reachable'), false);
    assert.equal(at(down.json, 'data.status'), 'degraded');
    await startRedis();
    let reachable = false;
    for (let i = 0; i < 40 && !reachable; i++) {
      await sleep(250);
      reachable = at((await app.get('/api/v1/health')).json, 'data.store.reachable') === true;
    }
    stop = true;
    await load;
    assert.equal(reachable, true, 'health recovers by itself');
    assert.deepEqual(failures, []);
    assert.ok(done > 50, `requests under load: ${done}`);
  });
});
