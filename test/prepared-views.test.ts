import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerAllFixtures } from './fixtures/index.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, get, startApp } from './helpers/app.ts';
import { useFakeUpstream } from './helpers/setup.ts';
import { at, list } from './helpers/json.ts';
import { eventually } from './helpers/wait.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import type { DataType } from '../src/core/data-type.ts';

/**
 * Warm answers from prepared bytes (issue 28): a STALE answer while its refresh runs, and the
 * composed views (city list, sources, overview, compare) kept while nothing they show changes.
 * Each kept answer must be the full path's answer, and must let go as soon as it would differ.
 */
const fake = useFakeUpstream((f) => {
  registerAllFixtures(f);
  registerBrightSky(f);
});
const FREIBURG_WEATHER = '/api/v1/cities/freiburg-im-breisgau/weather';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The headers a client sees, without the ones Node sets per response. */
function headersOf(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive', 'ratelimit', 'ratelimit-policy'].includes(k)) out[k] = v;
  });
  return out;
}

test('STALE while the refresh runs: the same bytes and headers every time, 304 on its ETag, then the new HIT', async () => {
  const weather = CATALOG.byType.get('weather')!;
  const quick: DataType = { ...weather, cache: { freshSeconds: 1, staleSeconds: 60 } };
  const app = await startApp(fakeEnv(fake.url), { catalog: buildCatalog([quick]) });
  try {
    await app.get(FREIBURG_WEATHER);
    assert.equal(at((await app.get(FREIBURG_WEATHER)).json, 'meta.cache_status'), 'HIT');
    // The upstream's next answer carries another temperature, and is held until released.
    const changed = JSON.parse(fixture('brightsky/current_weather-feldberg-2022-07-24.json').toString()) as { weather: { temperature: number } };
    changed.weather.temperature = 12.5;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    fake.get('/current_weather', async () => {
      await released;
      return { json: changed };
    });
    await sleep(1100);
    const first = await app.get(FREIBURG_WEATHER);
    assert.equal(at(first.json, 'meta.cache_status'), 'STALE');
    assert.equal(first.headers.get('cache-status'), 'stadtdaten; hit; detail="revalidating"');
    for (let i = 0; i < 4; i++) {
      const again = await app.get(FREIBURG_WEATHER);
      assert.equal(again.text, first.text);
      assert.deepEqual(headersOf(again.headers), headersOf(first.headers));
    }
    const notModified = await fetch(app.url + FREIBURG_WEATHER, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.get('cache-status'), 'stadtdaten; hit; detail="revalidating"');
    assert.equal(fake.count('/current_weather'), 2, 'one refresh for every STALE answer');
    release();
    let r = first;
    assert.ok(
      await eventually(async () => {
        r = await app.get(FREIBURG_WEATHER);
        return at(r.json, 'meta.cache_status') === 'HIT';
      }),
    );
    assert.equal(at(r.json, 'data.temperature_c'), 12.5);
  } finally {
    await app.close();
  }
});

test('the city list, a page of it and the sources: repeat requests get the full path bytes and headers', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    for (const path of ['/api/v1/cities', '/api/v1/cities?limit=10&page=2', '/api/v1/sources?limit=20']) {
      const first = await app.get(path);
      assert.equal(first.status, 200);
      const size = app.lane.size;
      const second = await app.get(path);
      assert.ok(app.lane.size >= size);
      for (let i = 0; i < 3; i++) {
        const again = await app.get(path);
        assert.equal(again.text, second.text, path);
        assert.deepEqual(headersOf(again.headers), headersOf(second.headers), path);
      }
      if (path.includes('page=2')) assert.match(second.headers.get('link') ?? '', /rel="next"/);
      const notModified = await fetch(app.url + path, { headers: { 'if-none-match': second.headers.get('etag')! } });
      assert.equal(notModified.status, 304, path);
    }
  } finally {
    await app.close();
  }
});

test('a kept overview lets go as soon as what it shows changes: a type that answered is answering at once', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    const path = '/api/v1/cities/freiburg-im-breisgau/overview';
    await app.get(path);
    const warm = await app.get(path);
    const again = await app.get(path);
    assert.equal(again.text, warm.text, 'nothing changed: the same bytes');
    assert.equal(again.headers.get('etag'), warm.headers.get('etag'));
    assert.equal((await fetch(app.url + path, { headers: { 'if-none-match': warm.headers.get('etag')! } })).status, 304);
    const stateOf = (body: unknown, type: string) =>
      at(
        list(body, 'data.data_types').find((d) => at(d, 'type') === type),
        'state',
      );
    assert.equal(stateOf(warm.json, 'holidays'), 'untried');
    assert.equal((await app.get('/api/v1/cities/freiburg-im-breisgau/holidays')).status, 200);
    const after = await app.get(path);
    assert.equal(stateOf(after.json, 'holidays'), 'answering');
  } finally {
    await app.close();
  }
});

test('a compare that fetched is sent once, not kept: the next one says HIT; a source failure shows in /sources at once', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    const path = '/api/v1/compare?resource=weather&cities=freiburg-im-breisgau,kiel';
    const cold = await app.get(path);
    const freiburg = (body: unknown) => list(body, 'data').find((i) => at(i, 'city') === 'freiburg-im-breisgau');
    assert.equal(at(freiburg(cold.json), 'cache_status'), 'MISS');
    const warm = await app.get(path);
    assert.equal(at(freiburg(warm.json), 'cache_status'), 'HIT');
    assert.equal(warm.headers.get('etag'), cold.headers.get('etag'), 'cache_status is not part of the tag');
    assert.equal((await app.get(path)).text, warm.text);

    const sources = '/api/v1/sources?limit=200';
    const failures = (body: unknown) =>
      at(
        list(body, 'data').find((s) => at(s, 'source') === 'dwd-brightsky'),
        'last_failure',
      );
    await app.get(sources);
    assert.equal(failures((await app.get(sources)).json), null);
    fake.mode = 'down';
    await get(app.url + '/api/v1/cities/kiel/weather?fresh=1');
    await app.get('/api/v1/cities/luebeck/weather');
    fake.mode = 'normal';
    assert.notEqual(failures((await app.get(sources)).json), null);
  } finally {
    await app.close();
  }
});
