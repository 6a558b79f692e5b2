import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { buildCatalog } from '../src/catalog/index.ts';
import { CATALOG } from '../src/catalog/index.ts';

const weather = CATALOG.byType.get('weather')!;
import { BRIGHTSKY } from '../src/sources/brightsky/source.ts';
import { RedisStore } from '../src/store/redis.ts';
import { ResilientStore } from '../src/store/resilient.ts';
import { withSources } from './helpers/swap-sources.ts';
import { at, list } from './helpers/json.ts';
import { freePort, REDIS_SKIP, RedisServer, testRedis } from './helpers/redis.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const source = { ...BRIGHTSKY, breaker: { threshold: 3, cooldownSeconds: 30 } };
const sources = CATALOG.sources.map((s) => (s.id === BRIGHTSKY.id ? source : s));
const catalog = buildCatalog([withSources(weather, () => source)]);

let fake: FakeUpstream;
let redis: Awaited<ReturnType<typeof testRedis>> | null = null;
before(async () => {
  fake = await new FakeUpstream().start();
  registerBrightSky(fake);
  if (!REDIS_SKIP) redis = await testRedis();
});
after(async () => {
  await fake.stop();
  await redis?.stop();
});

/** Two instances sharing one Redis (own key prefix per test), as when scaled out. */
async function pair(): Promise<[TestApp, TestApp]> {
  const prefix = `test:${randomUUID()}:`;
  const mk = () => startApp(fakeEnv(fake.url), { catalog, sources, store: new ResilientStore(new RedisStore(redis!.url, { keyPrefix: prefix })) });
  return [await mk(), await mk()];
}

describe('Redis: scale-out and outage', { skip: REDIS_SKIP }, () => {
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
    let server: RedisServer | null = null;
    const startRedis = async () => {
      server ??= new RedisServer(await freePort());
      await server.start();
    };
    const stopRedis = async () => {
      await server?.stop();
    };
    after(stopRedis);

    test('Redis stopped and restarted under load: no failed request, health tells, recovery by itself', async (t) => {
      await startRedis();
      const app = await startApp(fakeEnv(fake.url), {
        catalog,
        sources,
        store: new ResilientStore(new RedisStore(server!.url, { commandTimeoutMs: 200 })),
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
});
