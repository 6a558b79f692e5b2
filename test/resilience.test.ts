import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { buildCatalog } from '../src/catalog/index.ts';
import { CATALOG } from '../src/catalog/index.ts';

const weather = CATALOG.byType.get('weather')!;
import { BRIGHTSKY } from '../src/sources/brightsky/source.ts';
import type { DataType } from '../src/core/data-type.ts';
import { withSources } from './helpers/swap-sources.ts';
import type { SourceDecl } from '../src/core/source.ts';
import { eventually } from './helpers/wait.ts';
import { at, list, num, obj, str } from './helpers/json.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The real weather adapter with short windows and a quick breaker, so transitions fit in a test. */
const quickSource: SourceDecl = { ...BRIGHTSKY, breaker: { threshold: 3, cooldownSeconds: 2 }, timeoutMs: 1500 };
const quickWeather: DataType = { ...withSources(weather, () => quickSource), cache: { freshSeconds: 1, staleSeconds: 2 } };
const credSource: SourceDecl = { ...BRIGHTSKY, id: 'cred-test', name: 'Credential test source', env: 'CREDTEST', credentials: ['CREDTEST_KEY'] };
const credWeather: DataType = { ...withSources(weather, () => credSource), type: 'weather-cred', compare: undefined, highlight: undefined };
const sources = CATALOG.sources.map((s) => (s.id === BRIGHTSKY.id ? quickSource : s)).concat(credSource);
const catalog = buildCatalog([quickWeather, credWeather]);

const fake = useFakeUpstream(registerBrightSky);
let app: TestApp;

async function fresh(env: Record<string, string> = {}) {
  return startApp({ ...fakeEnv(fake.url), CREDTEST_BASE_URL: fake.url, ...env }, { catalog, sources });
}

describe('cache statuses', () => {
  before(async () => {
    app = await fresh();
  });
  after(async () => {
    await app.close();
  });

  test('MISS -> HIT -> STALE (one background refresh) -> HIT -> STALE-ON-ERROR', async () => {
    // The recording's own city: its value is what STALE and STALE-ON-ERROR keep serving.
    const path = '/api/v1/cities/freiburg-im-breisgau/weather';
    assert.equal(at((await app.get(path)).json, 'meta.cache_status'), 'MISS');
    assert.equal(fake.count('/current_weather'), 1);
    const hit = await app.get(path);
    assert.equal(at(hit.json, 'meta.cache_status'), 'HIT');
    assert.equal(hit.headers.get('cache-status'), 'stadtdaten; hit');
    assert.equal(fake.count('/current_weather'), 1, 'a HIT does no upstream I/O');

    await sleep(1100);
    const stale = await app.get(path);
    assert.equal(at(stale.json, 'meta.cache_status'), 'STALE');
    assert.equal(at(stale.json, 'data.temperature_c'), 32.1);
    assert.ok(await eventually(() => fake.count('/current_weather') >= 2), 'a background refresh ran');
    await sleep(100);
    assert.equal(fake.count('/current_weather'), 2, 'exactly one background refresh');
    assert.equal(at((await app.get(path)).json, 'meta.cache_status'), 'HIT');

    fake.mode = 'error';
    await sleep(1100);
    assert.equal(at((await app.get(path)).json, 'meta.cache_status'), 'STALE');
    let soe = await app.get(path);
    assert.ok(
      await eventually(async () => at((soe = await app.get(path)).json, 'meta.cache_status') === 'STALE-ON-ERROR'),
      'the failed refresh turns STALE into STALE-ON-ERROR',
    );
    assert.equal(at(soe.json, 'meta.source_status'), 'ok');
    assert.equal(at(soe.json, 'data.temperature_c'), 32.1);
  });

  test('past the stale window with the upstream down: the kept value is served as STALE-ON-ERROR', async () => {
    fake.mode = 'normal';
    // The failed refreshes of the test before may have opened Bright Sky's breaker: its cool-down (2 s) passes first.
    await sleep(2100);
    const path = '/api/v1/cities/kassel/weather';
    assert.equal(at((await app.get(path)).json, 'meta.cache_status'), 'MISS');
    fake.mode = 'error';
    await sleep(3200);
    const r = await app.get(path);
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.cache_status'), 'STALE-ON-ERROR');
  });

  test('upstream down and nothing stored: 503 problem whose hint points to GET /api/v1/health', async () => {
    fake.mode = 'down';
    const r = await app.get('/api/v1/cities/trier/weather');
    assert.equal(r.status, 503);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    assert.match(str(r.json, 'hint'), /GET \/api\/v1\/health/);
    assert.equal(r.headers.get('cache-control'), 'no-store');
  });
});

describe('single-flight', () => {
  before(async () => {
    app = await fresh();
  });
  after(async () => {
    await app.close();
  });

  test('250 concurrent cold requests share exactly one upstream request', async () => {
    // A latch, not a delay: the upstream answers only once all 250 requests have reached the server,
    // so none can arrive after the one fetch has filled the cache (and be a HIT), however slow the machine.
    const N = 250;
    let arrived = 0;
    let allArrived!: () => void;
    const latch = new Promise<void>((resolve) => (allArrived = resolve));
    const onRequest = () => {
      if (++arrived === N) allArrived();
    };
    app.app.server.on('request', onRequest);
    fake.get('/current_weather', async () => {
      await latch;
      return { file: 'brightsky/current_weather-feldberg-2022-07-24.json' };
    });
    const results = await Promise.all(Array.from({ length: N }, () => app.get('/api/v1/cities/freiburg-im-breisgau/weather'))).finally(() =>
      app.app.server.off('request', onRequest),
    );
    assert.ok(results.every((r) => r.status === 200 && at(r.json, 'data.temperature_c') === 32.1));
    assert.equal(fake.count('/current_weather'), 1);
    assert.equal(results.filter((r) => at(r.json, 'meta.cache_status') === 'MISS').length, 250);
  });
});

describe('circuit breaker', () => {
  before(async () => {
    app = await fresh();
  });
  after(async () => {
    await app.close();
  });

  const state = async () =>
    list<{ source: string; breaker_state: string }>((await app.get('/api/v1/sources?limit=all')).json, 'data').find(
      (s: { source: string }) => s.source === BRIGHTSKY.id,
    );

  test('CLOSED -> OPEN after consecutive failures; OPEN short-circuits; HALF_OPEN after cool-down; CLOSED on success', async () => {
    assert.equal((await state())?.breaker_state, 'CLOSED');
    fake.mode = 'error';
    for (const city of ['ulm', 'hamm', 'siegen']) assert.equal((await app.get(`/api/v1/cities/${city}/weather`)).status, 503);
    const open = await state();
    assert.equal(at(open, 'breaker_state'), 'OPEN');
    assert.ok(at(open, 'last_failure'));
    const before = fake.count();
    const short = await app.get('/api/v1/cities/moers/weather');
    assert.equal(short.status, 503);
    assert.equal(fake.count(), before, 'OPEN does not touch the upstream');

    await sleep(2100);
    assert.equal((await state())?.breaker_state, 'HALF_OPEN');
    fake.mode = 'normal';
    const ok = await app.get('/api/v1/cities/moers/weather');
    assert.equal(ok.status, 200);
    assert.equal(at(ok.json, 'meta.cache_status'), 'MISS');
    const closed = await state();
    assert.equal(at(closed, 'breaker_state'), 'CLOSED');
    assert.ok(at(closed, 'last_success'));
  });

  test('OPEN with a stored value serves it as STALE-ON-ERROR without touching the upstream', async () => {
    fake.mode = 'normal';
    assert.equal((await app.get('/api/v1/cities/herne/weather')).status, 200);
    await sleep(1100);
    fake.mode = 'error';
    for (const city of ['ulm', 'hamm', 'siegen']) await app.get(`/api/v1/cities/${city}/weather`);
    assert.equal((await state())?.breaker_state, 'OPEN');
    const before = fake.count();
    const r = await app.get('/api/v1/cities/herne/weather');
    assert.equal(at(r.json, 'meta.cache_status'), 'STALE-ON-ERROR');
    assert.equal(fake.count(), before);
  });
});

describe('source settings', () => {
  test('toggle off: 200 disabled, data null, no upstream call', async (t) => {
    const a = await fresh({ BRIGHTSKY_ENABLED: 'false' });
    t.after(() => a.close());
    const r = await a.get('/api/v1/cities/berlin/weather');
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'data'), null);
    assert.equal(at(r.json, 'meta.source_status'), 'disabled');
    assert.match(str(r.json, 'meta.disabled_reason'), /BRIGHTSKY_ENABLED/);
    assert.equal(fake.count(), 0);
    const src = list<{ source: string }>((await a.get('/api/v1/sources?limit=all')).json, 'data').find((s: { source: string }) => s.source === BRIGHTSKY.id);
    assert.equal(at(src, 'enabled'), false);
  });

  test('credentials missing: disabled, never an error; with them: ok', async (t) => {
    const without = await fresh();
    t.after(() => without.close());
    const withKey = await fresh({ CREDTEST_KEY: 'secret' });
    t.after(() => withKey.close());
    const r = await without.get('/api/v1/cities/berlin/weather-cred');
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'disabled');
    assert.match(str(r.json, 'meta.disabled_reason'), /CREDTEST_KEY/);
    assert.equal(fake.count(), 0);
    const ok = await withKey.get('/api/v1/cities/freiburg-im-breisgau/weather-cred');
    assert.equal(at(ok.json, 'meta.source_status'), 'ok', ok.text);
  });
});

describe('GET /api/v1/sources', () => {
  before(async () => {
    app = await fresh();
  });
  after(async () => {
    await app.close();
  });

  test('items carry name, enabled, breaker state, licence, tier, attribution, last success/failure', async () => {
    const r = await app.get('/api/v1/sources');
    assert.equal(r.status, 200);
    const s = list<{ source: string }>(r.json, 'data').find((x: { source: string }) => x.source === BRIGHTSKY.id);
    for (const k of ['source', 'name', 'enabled', 'breaker_state', 'license', 'tier', 'attribution', 'last_success', 'last_failure']) assert.ok(k in obj(s), k);
    assert.equal(at(r.json, 'meta.total'), sources.length);
    assert.ok(r.headers.get('etag'));
    assert.match(r.headers.get('cache-control') ?? '', /max-age=\d+/);
  });

  test('default limit 50, page/limit/offset, sort by source/enabled/license with order', async () => {
    const all = at((await app.get('/api/v1/sources?limit=all')).json, 'data');
    const asc = await app.get('/api/v1/sources?sort=source&order=asc&limit=200');
    assert.deepEqual(
      list<{ source: string }>(asc.json, 'data').map((x: { source: string }) => x.source),
      list<{ source: string }>(all)
        .map((x: { source: string }) => x.source)
        .sort((a: string, b: string) => a.localeCompare(b, 'de')),
    );
    const desc = await app.get('/api/v1/sources?sort=source&order=desc&limit=200');
    assert.deepEqual(
      list<{ source: string }>(desc.json, 'data').map((x: { source: string }) => x.source),
      list<{ source: string }>(asc.json, 'data')
        .map((x: { source: string }) => x.source)
        .reverse(),
    );
    for (const sort of ['enabled', 'license']) assert.equal((await app.get(`/api/v1/sources?sort=${sort}`)).status, 200);
    const p = await app.get('/api/v1/sources?limit=1&page=2&sort=source');
    assert.equal(at(p.json, 'data.length'), Math.min(1, Math.max(0, num(all, 'length') - 1)));
    assert.equal(at(p.json, 'meta.limit'), 1);
    const d = await app.get('/api/v1/sources');
    assert.equal(at(d.json, 'meta.limit'), 50);
    assert.equal(at((await app.get('/api/v1/sources?offset=999')).json, 'data.length'), 0);
  });

  test('400 invalid_request for an unknown sort field or order', async () => {
    for (const q of ['sort=colour', 'order=sideways']) {
      const r = await app.get(`/api/v1/sources?${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(at(r.json, 'code'), 'invalid_request');
      assert.ok(at(r.json, 'hint'));
    }
  });

  test('conditional GET: 304 without body for a matching If-None-Match (exact, weak, list, *)', async () => {
    const first = await app.get('/api/v1/sources');
    const etag = first.headers.get('etag')!;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const r = await app.get('/api/v1/sources', { 'if-none-match': inm });
      assert.equal(r.status, 304, inm);
      assert.equal(r.text, '');
      assert.equal(r.headers.get('etag'), etag);
      assert.ok(r.headers.get('cache-control'));
    }
    assert.equal((await app.get('/api/v1/sources', { 'if-none-match': '"other"' })).status, 200);
    assert.notEqual((await app.get('/api/v1/sources?sort=license')).headers.get('etag'), etag);
  });
});

describe('metrics', () => {
  before(async () => {
    app = await fresh({ METRICS_PUBLIC: 'true' });
  });
  after(async () => {
    await app.close();
  });

  test('GET /metrics: requests by route/status, upstream calls/latency/errors by source, cache statuses, breaker states', async () => {
    await app.get('/api/v1/cities/bonn/weather');
    await app.get('/api/v1/cities/bonn/weather');
    const m = await app.get('/metrics');
    assert.equal(m.status, 200);
    assert.match(m.headers.get('content-type') ?? '', /text\/plain/);
    assert.match(m.text, /http_requests_total\{method="GET",route="\/api\/v1\/cities\/:city\/weather",status="200"\} 2/);
    assert.match(m.text, /http_request_duration_seconds_bucket/);
    assert.match(m.text, /stadtdaten_upstream_requests_total\{source="dwd-brightsky",outcome="ok"\} 1/);
    assert.match(m.text, /stadtdaten_upstream_request_duration_seconds_bucket\{le="[^"]+",source="dwd-brightsky"\}/);
    assert.match(m.text, /stadtdaten_cache_results_total\{type="weather",cache_status="HIT"\} 1/);
    assert.match(m.text, /stadtdaten_circuit_state/);
    assert.match(m.text, /stadtdaten_source_enabled\{source="dwd-brightsky"\} 1/);
  });
});
