import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { CITIES } from '../src/cities/register.ts';
import { at, list, obj, str } from './helpers/json.ts';

const CORE = [
  'berlin',
  'hamburg',
  'muenchen',
  'koeln',
  'frankfurt-am-main',
  'stuttgart',
  'duesseldorf',
  'leipzig',
  'dortmund',
  'essen',
  'bremen',
  'dresden',
  'hannover',
  'nuernberg',
  'duisburg',
  'bochum',
  'wuppertal',
  'bielefeld',
  'bonn',
  'muenster',
  'wiesbaden',
  'kiel',
  'mainz',
  'magdeburg',
  'erfurt',
  'potsdam',
  'saarbruecken',
  'schwerin',
];
const ctx = useFakeApp(registerAllFixtures, { env: { MAX_CITIES: '28', COMPARE_CONCURRENCY: '8' } });
const { fake } = ctx;

test('compare: the eight resources of the spec are offered', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=nope&cities=berlin');
  assert.equal(r.status, 400);
  for (const res of ['weather', 'air', 'indicators', 'demographics', 'unemployment', 'tourism', 'charging-status', 'weather-warnings'])
    assert.match(str(r.json, 'hint'), new RegExp(res));
});

test('compare: 400 invalid_request for unknown or missing resource, empty cities, more than MAX_CITIES', async () => {
  for (const q of [
    'resource=nope&cities=berlin',
    'cities=berlin',
    'resource=weather&cities=',
    'resource=weather',
    'resource=weather&cities=,,',
    `resource=weather&cities=${[...CORE, 'jena'].join(',')}`,
    'resource=weather&cities=berlin&sort=colour',
    'resource=weather&cities=berlin&order=up',
  ]) {
    const r = await ctx.app.get(`/api/v1/compare?${q}`);
    assert.equal(r.status, 400, q);
    assert.equal(at(r.json, 'code'), 'invalid_request', q);
    assert.ok(at(r.json, 'hint'), q);
  }
  const ok = await ctx.app.get(`/api/v1/compare?resource=weather&cities=${CORE.join(',')}`);
  assert.equal(ok.status, 200, 'exactly MAX_CITIES is allowed');
  assert.equal(at(ok.json, 'data.length'), 28);
});

test('compare: each city has its own status; unknown city not_found; tolerant slugs; never an overall 5xx', async () => {
  // The weather recording is Freiburg's: Köln and München answer no_data, each with its own status.
  const r = await ctx.app.get('/api/v1/compare?resource=weather&cities=Freiburg,Munich,atlantis,k%C3%B6ln');
  assert.equal(r.status, 200);
  const by = Object.fromEntries(list<{ city: string }>(r.json, 'data').map((i: { city: string }) => [i.city, i]));
  assert.equal(at(by, 'freiburg-im-breisgau.source_status'), 'ok');
  assert.equal(at(by, 'muenchen.source_status'), 'no_data');
  assert.equal(at(by, 'koeln.source_status'), 'no_data');
  assert.equal(at(by, 'atlantis.source_status'), 'not_found');
  assert.equal(at(by, 'atlantis.data'), null);
  for (const i of list(r.json, 'data'))
    assert.deepEqual(
      Object.keys(obj(i))
        .filter((k) => ['city', 'data', 'source_status'].includes(k))
        .sort(),
      ['city', 'data', 'source_status'],
    );
});

test('compare: a dead source is error per city (nothing cached), disabled is disabled', async (t) => {
  fake.get('/current_weather', { status: 500, body: 'down' });
  const r = await ctx.app.get('/api/v1/compare?resource=weather&cities=jena,ulm');
  assert.equal(r.status, 200);
  assert.deepEqual(
    list<{ source_status: string }>(r.json, 'data').map((i: { source_status: string }) => i.source_status),
    ['error', 'error'],
  );
  const off = await startApp({ ...fakeEnv(fake.url), BRIGHTSKY_ENABLED: 'false' });
  t.after(() => off.close());
  const d = await off.get('/api/v1/compare?resource=weather&cities=jena');
  assert.equal(at(d.json, 'data.0.source_status'), 'disabled');
  assert.equal(at(d.json, 'data.0.data'), null);
});

test('compare: data, status and attribution identical to the per-city endpoint', async () => {
  const c = await ctx.app.get('/api/v1/compare?resource=weather&cities=bonn');
  const single = await ctx.app.get('/api/v1/cities/bonn/weather');
  assert.deepEqual(at(c.json, 'data.0.data'), at(single.json, 'data'));
  assert.deepEqual(at(c.json, 'data.0.attribution'), at(single.json, 'attribution'));
  assert.equal(at(c.json, 'data.0.source_status'), at(single.json, 'meta.source_status'));
});

test('compare: sort by city and source_status with order; page/limit/offset with default 50', async () => {
  const asc = await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel,atlantis,freiburg-im-breisgau&sort=city&order=asc');
  assert.deepEqual(
    list<{ city: string }>(asc.json, 'data').map((i: { city: string }) => i.city),
    ['atlantis', 'freiburg-im-breisgau', 'kiel'],
  );
  const desc = await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel,atlantis,freiburg-im-breisgau&sort=city&order=desc');
  assert.deepEqual(
    list<{ city: string }>(desc.json, 'data').map((i: { city: string }) => i.city),
    ['kiel', 'freiburg-im-breisgau', 'atlantis'],
  );
  const st = await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel,atlantis,freiburg-im-breisgau&sort=source_status');
  assert.deepEqual(
    list<{ source_status: string }>(st.json, 'data').map((i: { source_status: string }) => i.source_status),
    ['no_data', 'not_found', 'ok'],
  );
  const page = await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel,atlantis,freiburg-im-breisgau&sort=city&limit=1&page=2');
  assert.deepEqual(
    list<{ city: string }>(page.json, 'data').map((i: { city: string }) => i.city),
    ['freiburg-im-breisgau'],
  );
  assert.equal(at(page.json, 'meta.total'), 3);
  const def = await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel');
  assert.equal(at(def.json, 'meta.pagination.limit'), 50);
  const past = await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel&offset=10');
  assert.deepEqual(at(past.json, 'data'), []);
});

test('compare: ETag and Cache-Control; If-None-Match gives 304 without body', async () => {
  const first = await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel,bonn');
  const etag = first.headers.get('etag')!;
  assert.ok(etag);
  assert.ok(first.headers.get('cache-control'));
  const again = await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel,bonn', { 'if-none-match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.text, '');
  assert.equal((await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel,bonn', { 'if-none-match': '"x"' })).status, 200);
});

test('compare: cities are fetched concurrently, bounded by COMPARE_CONCURRENCY', async () => {
  let inflight = 0,
    peak = 0;
  // Each call is held a while and answered as Bright Sky answers a place without a station.
  fake.get('/current_weather', async () => {
    inflight++;
    peak = Math.max(peak, inflight);
    await new Promise((r) => setTimeout(r, 150));
    inflight--;
    return { status: 404, json: { detail: 'No sources match your criteria' } };
  });
  // Cities nobody asked for yet in this file, so every one is a cold fetch.
  const cold = CITIES.filter((c) => !c.core && !['jena', 'ulm', 'freiburg-im-breisgau'].includes(c.slug))
    .slice(0, 28)
    .map((c) => c.slug);
  const r = await ctx.app.get(`/api/v1/compare?resource=weather&cities=${cold.join(',')}`);
  assert.equal(r.status, 200);
  assert.deepEqual([...new Set(list<{ source_status: string }>(r.json, 'data').map((i: { source_status: string }) => i.source_status))], ['no_data']);
  assert.ok(peak > 1, `parallel upstream calls: ${peak}`);
  assert.ok(peak <= 8, `bounded: ${peak}`);
});

test('compare: two spellings of one city name it once, in the place of the first', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=weather&cities=koeln,Cologne,Freiburg,K%C3%B6ln,freiburg-im-breisgau');
  assert.equal(r.status, 200);
  assert.deepEqual(
    list<{ city: string }>(r.json, 'data').map((i: { city: string }) => i.city),
    ['koeln', 'freiburg-im-breisgau'],
  );
  assert.equal(at(r.json, 'meta.total'), 2);
});

test('compare: at in the future is a 422 naming the parameter, never a past value shown as that moment', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=weather&cities=freiburg&at=2030-07-24T16:00Z');
  assert.equal(r.status, 422);
  assert.equal(str(r.json, 'code'), 'invalid_parameter');
  assert.equal(str(r.json, 'parameter'), 'at');
  assert.match(str(r.json, 'hint'), /past moment/);
});
