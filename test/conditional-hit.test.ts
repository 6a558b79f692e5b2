import { at } from './helpers/json.ts';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeUpstream } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, get, type TestApp } from './helpers/app.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { buildCatalog } from '../src/catalog/index.ts';
import { CATALOG } from '../src/catalog/index.ts';

const weather = CATALOG.byType.get('weather')!;
import type { DataType } from '../src/core/data-type.ts';
import { eventually } from './helpers/wait.ts';

/**
 * ETag / 304 on a per-city data route, and the HIT lane in front of Fastify: its answers must be
 * the full path's answers, byte for byte and header for header.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The real weather adapter with a one-second fresh window, so the entry goes stale within a test. */
const quickWeather: DataType = { ...weather, cache: { freshSeconds: 1, staleSeconds: 60 } };

const fake = useFakeUpstream(registerBrightSky);

/** The headers a client sees, without the ones Node sets per response. */
function headersOf(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive'].includes(k)) out[k] = v;
  });
  return out;
}

async function requestCount(app: TestApp, status: number): Promise<number> {
  const text = (await app.get('/metrics')).text;
  const m = new RegExp(`^http_requests_total\\{method="GET",route="/api/v1/cities/:city/weather",status="${status}"\\} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

describe('ETag and 304 on a per-city data route', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp(fakeEnv(fake.url));
  });
  after(async () => {
    await app.close();
  });

  test('MISS, Fastify HIT and lane HIT carry one strong ETag; If-None-Match answers 304 without a body', async () => {
    // The recording's own city (elsewhere the fake answers Bright Sky's "no station" 404).
    const path = '/api/v1/cities/freiburg-im-breisgau/weather';
    const miss = await app.get(path);
    assert.equal(at(miss.json, 'meta.cache_status'), 'MISS');
    const etag = miss.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]{27}(-gz|-br)?"$/);
    const hit = await app.get(path);
    assert.equal(at(hit.json, 'meta.cache_status'), 'HIT');
    assert.equal(hit.headers.get('etag'), etag, 'cache_status is not part of the tag');
    const lane = await app.get(path);
    assert.equal(lane.text, hit.text);
    assert.deepEqual(headersOf(lane.headers), headersOf(hit.headers), 'the lane answers the full path headers');

    for (const inm of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await fetch(app.url + path, { headers: { 'if-none-match': inm } });
      assert.equal(r.status, 304, inm);
      assert.equal(await r.text(), '');
      assert.equal(r.headers.get('etag'), etag);
      assert.equal(r.headers.get('cache-status'), 'stadtdaten; hit');
    }
    const other = await app.get(path, { 'if-none-match': '"not-this-one"' });
    assert.equal(other.status, 200);
    assert.equal(other.text, hit.text);
  });

  test('a MISS answered through Fastify honours If-None-Match too', async () => {
    const path = '/api/v1/cities/kiel/weather';
    const etag = (await app.get('/api/v1/cities/bonn/weather')).headers.get('etag')!;
    // Same upstream answer for another city: the tag differs because meta.city does.
    const first = await app.get(path, { 'if-none-match': etag });
    assert.equal(first.status, 200);
    assert.notEqual(first.headers.get('etag'), etag);
    const again = await fetch(app.url + path, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.equal(again.status, 304);
  });

  test('a disabled source answers 200 with an ETag and 304 on a match', async () => {
    const off = await startApp({ ...fakeEnv(fake.url), BRIGHTSKY_ENABLED: 'false' });
    try {
      const r = await off.get('/api/v1/cities/bonn/weather');
      assert.equal(at(r.json, 'meta.source_status'), 'disabled');
      const etag = r.headers.get('etag');
      assert.ok(etag);
      assert.equal((await fetch(off.url + '/api/v1/cities/bonn/weather', { headers: { 'if-none-match': etag } })).status, 304);
    } finally {
      await off.close();
    }
  });
});

describe('the HIT lane', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ ...fakeEnv(fake.url), METRICS_PUBLIC: 'true' }, { catalog: buildCatalog([quickWeather]) });
  });
  after(async () => {
    await app.close();
  });

  test('a tolerant slug and an ignored query string get the canonical HIT bytes, and are counted', async () => {
    const canonical = '/api/v1/cities/muenchen/weather';
    await app.get(canonical);
    const hit = await app.get(canonical);
    assert.equal(at(hit.json, 'meta.cache_status'), 'HIT');
    const before200 = await requestCount(app, 200);
    for (const url of ['/api/v1/cities/Munich/weather', '/api/v1/cities/muenchen/weather?limit=10']) {
      for (let i = 0; i < 3; i++) {
        const r = await app.get(url);
        assert.equal(r.status, 200);
        assert.equal(r.text, hit.text, url);
        assert.deepEqual(headersOf(r.headers), headersOf(hit.headers), url);
      }
    }
    assert.equal(await requestCount(app, 200), before200 + 6);
    assert.equal(fake.count('/current_weather'), 1, 'no upstream call after the first');
  });

  test('after the fresh window the lane lets go: STALE, one refresh, then a new HIT with a new ETag', async () => {
    // The recording's own city (elsewhere the fake answers Bright Sky's "no station" 404).
    const path = '/api/v1/cities/freiburg-im-breisgau/weather';
    await app.get(path);
    const hit = await app.get(path);
    await app.get(path);
    assert.equal(at(hit.json, 'meta.cache_status'), 'HIT');
    const oldTag = hit.headers.get('etag')!;

    // The upstream's next answer carries another temperature.
    const changed = JSON.parse(fixture('brightsky/current_weather-feldberg-2022-07-24.json').toString()) as { weather: { temperature: number } };
    changed.weather.temperature = 12.5;
    fake.get('/current_weather', { json: changed });
    await sleep(1100);
    const stale = await app.get(path);
    assert.equal(at(stale.json, 'meta.cache_status'), 'STALE');
    assert.equal(at(stale.json, 'data.temperature_c'), 32.1);
    assert.ok(await eventually(() => fake.count('/current_weather') === 2), 'one background refresh');
    let r = stale;
    assert.ok(
      await eventually(async () => {
        r = await app.get(path);
        return at(r.json, 'meta.cache_status') === 'HIT';
      }),
    );
    assert.equal(at(r.json, 'data.temperature_c'), 12.5);
    const newTag = r.headers.get('etag');
    assert.ok(newTag && newTag !== oldTag, 'new data, new tag');
    const revalidated = await get(app.url + path, { 'if-none-match': oldTag });
    assert.equal(revalidated.status, 200);
    assert.equal(at(revalidated.json, 'data.temperature_c'), 12.5);
    assert.equal((await fetch(app.url + path, { headers: { 'if-none-match': newTag } })).status, 304);
  });

  test('HEAD, other channels and long URLs go through Fastify', async () => {
    const path = '/api/v1/cities/kiel/weather';
    await app.get(path);
    const hit = await app.get(path);
    const size = app.lane.size;
    const head = await fetch(app.url + path, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), hit.headers.get('etag'));
    const mcp = await app.get(path, { 'x-stadtdaten-channel': 'mcp' });
    assert.equal(at(mcp.json, 'meta.cache_status'), 'HIT');
    assert.equal(app.lane.size, size, 'neither adds a lane URL');
    const long = await app.get(`${path}?pad=${'x'.repeat(600)}`);
    assert.equal(at(long.json, 'meta.cache_status'), 'HIT');
    assert.equal(long.headers.get('etag'), hit.headers.get('etag'));
    assert.equal(app.lane.size, size, 'a long URL stays with Fastify (bounded lane keys)');
  });
});
