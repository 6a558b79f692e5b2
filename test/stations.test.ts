import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerStada, registerStadaPaged, STADA_STATIONS_PATH } from './fixtures/stada/routes.ts';
import { nameKey, parseStationPage, stationsOfCity, type StadaPage } from '../src/sources/stada/stations.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { nth } from './helpers/must.ts';
import { at, list, str } from './helpers/json.ts';

const page = (name: string): StadaPage => JSON.parse(fixture(`stada/${name}`).toString('utf8'));
const CREDS = { DB_CLIENT_ID: 'test-client', DB_API_KEY: 'test-key' };

const ctx = useFakeApp(registerStada, { env: CREDS });
const { fake } = ctx;

test('parser: real StaDa v2 record (Aachen Hbf): main EVA as string, [lon, lat] order, zip with leading digits kept', () => {
  const p = parseStationPage(page('stations-by-id_1_aachen-hbf_v2.json'));
  assert.equal(p.total, 1);
  assert.deepEqual(p.stations[0], {
    eva: '8000001',
    evas: ['8000001'],
    name: 'Aachen Hbf',
    category: 2,
    lat: 50.7678,
    lon: 6.091499,
    post_code: '52064',
    ags: null,
    place: 'Aachen',
  });
});

test('parser: real Hessen page (older API version without municipalityCode): every station parsed, ags null', () => {
  const p = parseStationPage(page('stations_federalstate-hessen_v2_first3-of-429.json'));
  assert.equal(p.total, 429);
  assert.equal(p.received, 3);
  assert.deepEqual(
    p.stations.map((s) => [s.eva, s.name, s.category, s.post_code]),
    [
      ['8000471', 'Albshausen', 6, '35606'],
      ['8000492', 'Allendorf (Dillkr)', 7, '35708'],
      ['8000350', 'Alsfeld (Oberhess)', 5, '36304'],
    ],
  );
  assert.ok(p.stations.every((s) => s.ags === null));
});

test('parser: marketplace shape: municipalityCode as ags, several EVAs, stations not in operation or without EVA left out', () => {
  const p = parseStationPage(page('stations_v2_marketplace.json'));
  const hbf = p.stations.find((s) => s.name === 'Berlin Hbf')!;
  assert.equal(hbf.ags, '11000000');
  assert.equal(hbf.eva, '8011160');
  assert.deepEqual(hbf.evas, ['8011160', '8098160']);
  assert.ok(!p.stations.some((s) => s.name.includes('geplant')), 'category -1 dropped');
  assert.ok(!p.stations.some((s) => s.name === 'Berlin Ohne-EVA'), 'no EVA dropped');
  assert.equal(p.stations.find((s) => s.name === 'Aachen Hbf')!.ags, '05334002');
});

test('name folding: umlaut, transliteration and plain vowel meet', () => {
  assert.equal(nameKey('Köln'), nameKey('Koeln'));
  assert.equal(nameKey('Köln'), nameKey('Koln'));
  const all = parseStationPage(page('stations_v2_marketplace.json')).stations;
  assert.deepEqual(
    stationsOfCity(all, CITY_BY_SLUG.get('berlin')!, 'Koepenick').map((s) => s.name),
    ['Berlin-Köpenick'],
  );
});

test('GET stations: stations matched by AGS, sorted by name, fields eva/name/category/lat/lon/post_code (+ zip alias)', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/stations');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(
    list<{ name: string }>(r.json, 'data').map((s: { name: string }) => s.name),
    ['Köln Hbf', 'Köln Messe/Deutz', 'Köln-Ehrenfeld', 'Köln-Mülheim', 'Köln/Bonn Flughafen'],
  );
  const hbf = at(r.json, 'data.0');
  assert.deepEqual(
    {
      eva: at(hbf, 'eva'),
      name: at(hbf, 'name'),
      category: at(hbf, 'category'),
      lat: at(hbf, 'lat'),
      lon: at(hbf, 'lon'),
      post_code: at(hbf, 'post_code'),
      zip: at(hbf, 'zip'),
    },
    { eva: '8000207', name: 'Köln Hbf', category: 1, lat: 50.943029, lon: 6.95873, post_code: '50667', zip: '50667' },
  );
  assert.equal(at(hbf, 'ags'), undefined);
  assert.equal(at(r.json, 'meta.total_matching'), 5);
  assert.equal(at(r.json, 'attribution.license'), 'CC BY 4.0');
  const req = fake.requests.find((x) => x.url.startsWith(STADA_STATIONS_PATH))!;
  assert.equal(req.headers['db-client-id'], 'test-client');
  assert.equal(req.headers['db-api-key'], 'test-key');
  assert.equal(new URL(req.url, 'http://x').searchParams.get('limit'), '10000');
});

test('GET stations: the national list is fetched at most once and shared by every city', async () => {
  await ctx.app.get('/api/v1/cities/berlin/stations?q=spandau');
  await ctx.app.get('/api/v1/cities/muenchen/stations');
  const aachen = await ctx.app.get('/api/v1/cities/aachen/stations');
  assert.ok(fake.count(STADA_STATIONS_PATH) <= 1);
  assert.deepEqual(
    list<{ eva: string }>(aachen.json, 'data').map((s: { eva: string }) => s.eva),
    ['8000001'],
  );
});

test('GET stations q: umlaut spelling, transliteration and plain vowel all match; no match is no_data', async () => {
  for (const q of ['Köln', 'Koeln', 'Koln', 'KÖLN']) {
    const r = await ctx.app.get(`/api/v1/cities/koeln/stations?q=${encodeURIComponent(q)}`);
    assert.equal(at(r.json, 'data.length'), 5, q);
  }
  for (const q of ['Mülheim', 'Muelheim', 'Mulheim']) {
    const r = await ctx.app.get(`/api/v1/cities/koeln/stations?q=${encodeURIComponent(q)}`);
    assert.deepEqual(
      list<{ name: string }>(r.json, 'data').map((s: { name: string }) => s.name),
      ['Köln-Mülheim'],
      q,
    );
  }
  const sch = await ctx.app.get(`/api/v1/cities/berlin/stations?q=${encodeURIComponent('schoeneweide')}`);
  assert.deepEqual(
    list<{ name: string }>(sch.json, 'data').map((s: { name: string }) => s.name),
    ['Berlin-Schöneweide'],
  );
  const none = await ctx.app.get('/api/v1/cities/koeln/stations?q=Hamburg');
  assert.equal(none.status, 200);
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');
  assert.equal(at(none.json, 'data'), null);
  assert.match(str(none.json, 'meta.reason'), /matches/);
});

test('GET stations limit: default all (>100 in Berlin), above 100 clamped to 100, limit=3 takes the first three by name', async () => {
  const all = await ctx.app.get('/api/v1/cities/berlin/stations');
  assert.equal(at(all.json, 'data.length'), 108);
  const names = list<{ name: string }>(all.json, 'data').map((s: { name: string }) => s.name);
  assert.deepEqual(
    names,
    [...names].sort((a: string, b: string) => a.localeCompare(b, 'de')),
  );
  const clamped = await ctx.app.get('/api/v1/cities/berlin/stations?limit=150');
  assert.equal(clamped.status, 200);
  assert.equal(at(clamped.json, 'data.length'), 100);
  assert.equal(at(clamped.json, 'meta.total_matching'), 108);
  const three = await ctx.app.get('/api/v1/cities/berlin/stations?limit=3');
  assert.deepEqual(
    list<{ name: string }>(three.json, 'data').map((s: { name: string }) => s.name),
    names.slice(0, 3),
  );
});

test('GET stations limit=0, limit=-1 and limit=abc are 422', async () => {
  for (const l of ['0', '-1', 'abc', '1.5']) {
    const r = await ctx.app.get(`/api/v1/cities/berlin/stations?limit=${l}`);
    assert.equal(r.status, 422, l);
    assert.equal(at(r.json, 'code'), 'invalid_parameter');
    assert.match(str(r.json, 'hint'), /limit/);
  }
});

test('GET stations: a city without any station in the list is no_data; unknown city 404', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/stations');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /municipality key/);
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/stations');
});

test('paging: a smaller server page size is followed with offset until total', async () => {
  fake.reset();
  registerStadaPaged(fake, 50);
  const fresh = await startApp({ ...fakeEnv(fake.url), ...CREDS });
  try {
    const r = await fresh.get('/api/v1/cities/berlin/stations');
    assert.equal(at(r.json, 'data.length'), 108);
    const offsets = fake.requests.map((x) => new URL(x.url, 'http://x').searchParams.get('offset'));
    assert.deepEqual(offsets, ['0', '50', '100']);
  } finally {
    await fresh.close();
  }
});

test('without credentials (keyless fallback off too): 200 disabled, no upstream call; toggle off likewise', async () => {
  // The keyless fallback (DB open station data) has its own tests: stations-open.test.ts.
  const noFallback = { DB_OPEN_STATIONS_ENABLED: 'false' };
  const noCreds = await startApp({ ...fakeEnv(fake.url), ...noFallback });
  const off = await startApp({ ...fakeEnv(fake.url), ...CREDS, STADA_ENABLED: 'false', ...noFallback });
  try {
    const r = await noCreds.get('/api/v1/cities/berlin/stations');
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'disabled');
    assert.equal(at(r.json, 'data'), null);
    assert.match(str(r.json, 'meta.disabled_reason'), /DB_CLIENT_ID, DB_API_KEY/);
    const o = await off.get('/api/v1/cities/berlin/stations');
    assert.equal(at(o.json, 'meta.source_status'), 'disabled');
    assert.equal(fake.count(), 0);
  } finally {
    await noCreds.close();
    await off.close();
  }
});

test('upstream dead and nothing cached: 503 with a health hint', async () => {
  await expectUnavailable({ fake, env: CREDS, path: '/api/v1/cities/berlin/stations' });
});

test('answers without municipalityCode (the real recorded v2 payload) match by the mailing-address city, exactly', async (t) => {
  const real = parseStationPage(page('stations-by-id_1_aachen-hbf_v2.json')).stations;
  assert.deepEqual(
    stationsOfCity(real, CITY_BY_SLUG.get('aachen')!).map((s) => s.name),
    ['Aachen Hbf'],
  );
  const oder = [{ ...nth(real, 0), name: 'Frankfurt (Oder)', place: 'Frankfurt (Oder)' }];
  assert.deepEqual(stationsOfCity(oder, CITY_BY_SLUG.get('frankfurt-am-main')!), [], 'Frankfurt (Oder) is not Frankfurt am Main');
  ctx.fake.get(STADA_STATIONS_PATH, { file: 'stada/stations-by-id_1_aachen-hbf_v2.json' });
  const fresh = await startApp({ ...fakeEnv(ctx.fake.url), ...CREDS });
  t.after(() => fresh.close());
  const r = await fresh.get('/api/v1/cities/aachen/stations');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.0.eva'), '8000001');
  assert.equal(at(r.json, 'data.0.zip'), '52064');
});

test('malformed upstream: an HTML error page or a body without result[] is 503, never 500', async (t) => {
  const fresh = await startApp({ ...fakeEnv(ctx.fake.url), ...CREDS });
  t.after(() => fresh.close());
  ctx.fake.get(STADA_STATIONS_PATH, { body: '<html>502 Bad Gateway</html>', headers: { 'content-type': 'text/html' } });
  const html = await fresh.get('/api/v1/cities/koeln/stations');
  assert.equal(html.status, 503);
  assert.equal(at(html.json, 'code'), 'upstream_unavailable');
  ctx.fake.get(STADA_STATIONS_PATH, { json: { offset: 0, limit: 10000, total: 0 } });
  const shapeless = await fresh.get('/api/v1/cities/bonn/stations');
  assert.equal(shapeless.status, 503);
});
