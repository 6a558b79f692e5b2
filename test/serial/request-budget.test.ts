import { CITY_BY_SLUG } from '../../src/cities/register.ts';
import { must } from '../helpers/must.ts';
import { at, str } from '../helpers/json.ts';
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from '../helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from '../helpers/app.ts';
import { registerAllFixtures } from '../fixtures/index.ts';
import { eventually } from '../helpers/wait.ts';
import { CATALOG } from '../../src/catalog/index.ts';
import { routePath } from '../../src/core/data-type.ts';

/**
 * REQUEST_BUDGET_MS holds on every path: with upstreams hung or dripping, no request waits longer
 * for them; the one fetch per key goes on in the background and fills the cache.
 */
const BUDGET_MS = 1000;
/** Scheduling slack on a shared 2-core machine; the point is "the budget, not the upstream timeouts (8-30 s)". */
const SLACK_MS = 1500;
let fake: FakeUpstream;
let app: TestApp;
before(async () => {
  fake = await new FakeUpstream().start();
  app = await startApp({
    ...fakeEnv(fake.url),
    DB_CLIENT_ID: 'id',
    DB_API_KEY: 'key',
    REQUEST_BUDGET_MS: String(BUDGET_MS),
    OVERVIEW_BUDGET_MS: '800',
  });
});
after(async () => {
  fake.dropConnections();
  await app.close();
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
  registerAllFixtures(fake);
});

async function timed(path: string) {
  const started = Date.now();
  const r = await app.get(path);
  return { r, ms: Date.now() - started };
}

test('every per-city route answers within the budget while every upstream hangs', async () => {
  fake.mode = 'hang';
  const paths = CATALOG.all.filter((dt) => dt.scope !== 'global').map((dt) => routePath(dt).replace('{city}', 'dortmund'));
  paths.push('/api/v1/cities/dortmund/overview', '/api/v1/compare?resource=weather&cities=bonn,essen,duisburg');
  try {
    const results = await Promise.all(paths.map(async (p) => ({ p, ...(await timed(p)) })));
    for (const { p, r, ms } of results) {
      assert.ok(ms < BUDGET_MS + SLACK_MS, `${p} took ${ms} ms`);
      // 422: a type whose required parameter is missing never reaches the upstream.
      assert.ok([200, 422, 503].includes(r.status), `${p}: ${r.status}`);
      if (r.status === 503) {
        assert.equal(at(r.json, 'code'), 'upstream_unavailable', p);
        assert.ok(Number(r.headers.get('retry-after')) >= 1, p);
      }
    }
    assert.ok(results.filter((x) => x.r.status === 503).length >= 10, 'the hung upstreams were asked');
  } finally {
    fake.dropConnections();
  }
});

test('a fetch slower than the budget: 503 at the budget, then the one background fetch fills the cache', async () => {
  fake.get('/current_weather', { file: 'brightsky/current_weather-feldberg-2022-07-24.json', delayMs: 2000 });
  const first = await Promise.all(Array.from({ length: 5 }, () => timed('/api/v1/cities/kiel/weather')));
  for (const { r, ms } of first) {
    assert.equal(r.status, 503);
    assert.match(str(r.json, 'detail'), /request budget/);
    assert.equal(r.headers.get('retry-after'), '5');
    assert.ok(ms < BUDGET_MS + SLACK_MS, `took ${ms} ms`);
  }
  let later = await app.get('/api/v1/cities/kiel/weather');
  assert.ok(await eventually(async () => (later = await app.get('/api/v1/cities/kiel/weather')).status === 200, 5000), later.text);
  // HIT when the background fetch had finished, MISS when this request joined it while it ran.
  assert.ok(['HIT', 'MISS'].includes(str(later.json, 'meta.cache_status')), str(later.json, 'meta.cache_status'));
  // Only Kiel's calls count: abandoned fetches of the previous test (other cities, other types) may still retry.
  const kiel = must(CITY_BY_SLUG.get('kiel'), 'kiel');
  const kielCalls = fake.requests.filter(
    (q) => q.url.startsWith('/current_weather') && new URL(q.url, 'http://x').searchParams.get('lat') === String(kiel.lat),
  );
  assert.equal(kielCalls.length, 1, 'single-flight: one upstream call for all of them');
});
