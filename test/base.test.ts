import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerWikidata } from './fixtures/wikidata/routes.ts';
import { parseCityBase, wikidataDate } from '../src/sources/wikidata/entity.ts';
import { encodeEntry } from '../src/pipeline/cache.ts';
import { normalise } from '../src/core/normalise.ts';
import { nth } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

const json = (path: string) => JSON.parse(fixture(path).toString());

const ctx = useFakeApp(registerWikidata);
const { fake } = ctx;

test('parser: newest P1082 by P585 wins over an older preferred one; deprecated and undated statements lose', () => {
  const d = parseCityBase(json('wikidata/entitydata-Q2773-braunschweig.json'), 'Q2773');
  assert.equal(d.population, 251364);
  assert.equal(d.population_date, '2023-12-31');
  assert.equal(d.area_km2, 192.7);
  assert.equal(d.lat, 52.269166666667);
  assert.equal(d.lon, 10.521111111111);
  assert.equal(d.name, 'Braunschweig');
  assert.equal(d.qid, 'Q2773');
  assert.equal(d.entity_modified_at, '2026-08-30T08:12:45+02:00');
});

test('parser: area unit checked (square miles dropped, hectares converted), year precision, somevalue coordinates skipped', () => {
  const d = parseCityBase(json('wikidata/entitydata-Q1711-potsdam.json'), 'Q1711');
  assert.equal(d.area_km2, 188.26);
  assert.equal(d.population, 183154);
  assert.equal(d.population_date, '2022');
  assert.equal(d.lat, 52.4);
  assert.equal(wikidataDate('+2024-05-00T00:00:00Z', 10), '2024-05');
  assert.throws(() => parseCityBase({} as never, 'Q1'), /Wikidata EntityData \$\.entities: expected record, received undefined/);
});

test('parser: a redirected QID is answered under its target id', () => {
  const body = json('wikidata/entitydata-Q1711-potsdam.json');
  const d = parseCityBase(body, 'Q99999999');
  assert.equal(d.qid, 'Q1711');
});

test('GET base: record from the register QID, HIT on the second call', async () => {
  const r = await ctx.app.get('/api/v1/cities/braunschweig/base');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.cache_status'), 'MISS');
  assert.equal(at(r.json, 'meta.qid'), 'Q2773');
  assert.equal(at(r.json, 'data.population'), 251364);
  assert.equal(at(r.json, 'data.population_date'), '2023-12-31');
  assert.equal(at(r.json, 'data.area_km2'), 192.7);
  assert.equal(at(r.json, 'attribution.license'), 'CC0-1.0');
  assert.equal(nth(fake.requests, 0).url, '/wiki/Special:EntityData/Q2773.json');
  assert.match(String(nth(fake.requests, 0).headers['user-agent']), /Stadtdaten\/1\.0\.0 \(\+https?:\/\//);
  const again = await ctx.app.get('/api/v1/cities/BRAUNSCHWEIG/base');
  assert.equal(at(again.json, 'meta.cache_status'), 'HIT');
  assert.equal(fake.count('/wiki/'), 1);
});

test('base on a recording (Bielefeld, Q2112, 2023-04-04): the preferred newest of 17 unordered P1082 statements, km² area, item modified time', async () => {
  const r = await ctx.app.get('/api/v1/cities/bielefeld/base');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.qid'), 'Q2112');
  assert.equal(at(r.json, 'data.name'), 'Bielefeld');
  // 2016 and 2017 follow 1960 in the list; the newest point in time (2021-12-31, the preferred one) wins.
  assert.equal(at(r.json, 'data.population'), 334002);
  assert.equal(at(r.json, 'data.population_date'), '2021-12-31');
  assert.equal(at(r.json, 'data.area_km2'), 258.82);
  assert.equal(at(r.json, 'data.lat'), 52.016666666667);
  assert.equal(at(r.json, 'data.lon'), 8.5333333333333);
  assert.equal(at(r.json, 'data.entity_modified_at'), '2023-04-04T07:21:49+02:00');
});

test('base: an item Wikidata does not have (404) is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/base');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /Q1707/);
});

test('base: unknown city is 404', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/gotham/base');
});

test('base: WIKIDATA_ENABLED=false answers 200 disabled with data null and no upstream call', async () => {
  await expectDisabled({ fake, env: { WIKIDATA_ENABLED: 'false' }, path: '/api/v1/cities/braunschweig/base', upstreamPrefix: '/wiki/' });
});

test('base: 429 is honoured: stale answer names Retry-After, no further calls, uncached cities get 503', async () => {
  const limited = await startApp(fakeEnv(fake.url));
  try {
    fake.get(/^\/wiki\/Special:EntityData\//, { status: 429, headers: { 'retry-after': '120', 'content-type': 'text/plain' }, body: 'Too many requests' });
    // An answer fetched 25 hours ago: past its fresh window, inside its stale window.
    const data = normalise(parseCityBase(json('wikidata/entitydata-Q1711-potsdam.json'), 'Q1711'));
    await limited.rt.store.set(
      'cache:base:potsdam:',
      encodeEntry({ fetchedAt: Date.now() - 25 * 3600_000, status: 'ok', asOf: null, meta: { qid: 'Q1711' }, dataJson: JSON.stringify(data) }),
    );
    const first = await limited.get('/api/v1/cities/potsdam/base');
    assert.equal(at(first.json, 'meta.cache_status'), 'STALE');
    assert.equal(at(first.json, 'data.population'), 183154);
    let r = first;
    for (let i = 0; i < 250 && at(r.json, 'meta.cache_status') !== 'STALE-ON-ERROR'; i++) {
      await sleep(20);
      r = await limited.get('/api/v1/cities/potsdam/base');
    }
    assert.equal(at(r.json, 'meta.cache_status'), 'STALE-ON-ERROR');
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(at(r.json, 'data.population'), 183154);
    assert.ok(Date.parse(str(r.json, 'meta.retry_after')) > Date.now() + 60_000, str(r.json, 'meta.retry_after'));
    for (let i = 0; i < 3; i++) await limited.get('/api/v1/cities/potsdam/base');
    assert.equal(fake.count('/wiki/'), 1, 'one 429, then no call before Retry-After');
    const uncached = await limited.get('/api/v1/cities/braunschweig/base');
    assert.equal(uncached.status, 503);
    assert.match(str(uncached.json, 'hint'), /\/api\/v1\/health/);
    assert.equal(fake.count('/wiki/'), 1);
  } finally {
    await limited.close();
  }
});

test('base: dead upstream with nothing cached is a 503 problem pointing to /api/v1/health', async () => {
  await expectUnavailable({ fake, path: '/api/v1/cities/braunschweig/base' });
});
