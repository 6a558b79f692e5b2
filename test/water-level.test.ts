import { at, list, str } from './helpers/json.ts';
import { must, nth } from './helpers/must.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerPegelonline } from './fixtures/pegelonline/routes.ts';
import { embeddedW, parseStations, toWaterLevel, type PegelStation, type PegelTimeseries } from '../src/sources/pegelonline/parse.ts';
import { searchRadiusKm } from '../src/sources/pegelonline/adapters.ts';
import { DEPRECATED_SINCE } from '../src/http/deprecation.ts';

const ctx = useFakeApp(registerPegelonline);
const { fake } = ctx;
const BASE = '/webservices/rest-api/v2';
const KOELN_W = 'pegelonline/station-W-koeln-includeCurrentMeasurement-includeCharacteristicValues-2026-09-10.json';
const koelnW = () => JSON.parse(fixture(KOELN_W).toString()) as PegelTimeseries;
const koelnStation = () => must((JSON.parse(fixture('pegelonline/stations-json-koeln-constructed.json').toString()) as PegelStation[])[0]);

test('parser: the real W series of KÖLN: value, state, gauge zero, characteristic values, zoned time', () => {
  const g = toWaterLevel(koelnStation(), koelnW(), 50.9381, 6.9571);
  assert.equal(g.name, 'KÖLN');
  assert.equal(g.water, 'RHEIN');
  assert.equal(g.value_cm, 66);
  assert.equal(g.measured_at, '2026-09-10T18:15:00+02:00');
  assert.equal(g.state_mnw_mhw, 'low');
  assert.equal(g.state_nsw_hsw, 'normal');
  assert.equal(g.trend, null);
  assert.equal(g.gauge_zero_m, 35.038);
  assert.equal(g.gauge_zero_valid_from, '2019-11-01');
  assert.equal(g.level_nhn_m, 35.698);
  assert.deepEqual([g.mnw_cm, g.mw_cm, g.mhw_cm, g.hsw_cm], [114, 297, 725, 830]);
  assert.equal(g.distance_km, 0.4);
});

test('parser: real 2014 stations.json: a station without coordinates is kept without a distance', () => {
  const stations = parseStations(JSON.parse(fixture('pegelonline/stations-json-2014-excerpt.json').toString()));
  assert.equal(stations.length, 5);
  assert.equal(embeddedW(nth(stations, 0)), undefined);
  const achleiten = toWaterLevel(nth(stations, 4), koelnW(), 48.5, 13.5);
  assert.equal(achleiten.lat, null);
  assert.equal(achleiten.distance_km, null);
  // A station that came with its time series (includeTimeseries=true) needs no second request.
  assert.equal(embeddedW({ ...nth(stations, 0), timeseries: [koelnW()] })?.currentMeasurement?.value, 66);
  assert.equal(embeddedW({ ...nth(stations, 0), timeseries: [] }), null);
});

test('the recorded KÖLN station with its series (2023-01-12, includeTimeseries): W, Q and WT side by side, W read with gauge zero', async () => {
  const recorded = JSON.parse(fixture('pegelonline/station-koeln-includeTimeseries-includeCurrentMeasurement-2023-01-12.json').toString()) as PegelStation;
  const [station] = parseStations([recorded]);
  const w = must(embeddedW(must(station)));
  const rec = toWaterLevel(must(station), w, 50.9381, 6.9599);
  assert.deepEqual(
    [
      rec.name,
      rec.water,
      rec.river_km,
      rec.value_cm,
      rec.measured_at,
      rec.state_mnw_mhw,
      rec.state_nsw_hsw,
      rec.gauge_zero_m,
      rec.gauge_zero_valid_from,
      rec.level_nhn_m,
      rec.mnw_cm,
    ],
    ['KÖLN', 'RHEIN', 688, 475, '2023-01-12T16:45:00+01:00', 'normal', 'normal', 35.038, '2019-11-01', 39.788, null],
  );
  // A stations.json answer lists such objects (the search form of the same request): through HTTP as well.
  fake.get(`${BASE}/stations.json`, { json: [recorded] });
  const r = await ctx.freshGet('/api/v1/live/koeln/water-level');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(
    [at(r.json, 'data.0.value_cm'), at(r.json, 'data.0.measured_at'), at(r.json, 'data.0.level_nhn_m')],
    [475, '2023-01-12T16:45:00+01:00', 39.788],
  );
});

test('search radius follows the city area within bounds', () => {
  assert.equal(searchRadiusKm(405.01), 13);
  assert.equal(searchRadiusKm(891.12), 19);
  assert.equal(searchRadiusKm(50), 6);
  assert.equal(searchRadiusKm(null), 10);
});

test('GET water-level (live path): the KÖLN gauge with its current level; radius query by register point', async () => {
  const r = await ctx.app.get('/api/v1/live/koeln/water-level');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.length'), 1);
  assert.equal(at(r.json, 'data.0.uuid'), 'a6ee8177-107b-47dd-bcfd-30960ccc6e9c');
  assert.equal(at(r.json, 'data.0.value_cm'), 66);
  assert.equal(at(r.json, 'meta.as_of'), '2026-09-10T18:15:00+02:00');
  assert.equal(at(r.json, 'meta.radius_km'), 13);
  assert.match(str(r.json, 'attribution.text'), /PEGELONLINE/);
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/zero-2-0');
  const q = new URL(fake.requests.find((x) => x.url.startsWith(`${BASE}/stations.json`))!.url, 'http://x').searchParams;
  assert.equal(q.get('timeseries'), 'W');
  assert.equal(q.get('includeCurrentMeasurement'), 'true');
  assert.ok(Math.abs(Number(q.get('latitude')) - 50.9381) < 0.001);
});

test('water-level: the old path is a deprecation alias with the same data', async () => {
  const live = await ctx.app.get('/api/v1/live/koeln/water-level');
  const alias = await ctx.app.get('/api/v1/cities/K%C3%B6ln/water-level');
  assert.equal(alias.status, 200);
  assert.deepEqual(at(alias.json, 'data'), at(live.json, 'data'));
  assert.equal(alias.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
  assert.equal(alias.headers.get('link'), '</api/v1/live/koeln/water-level>; rel="successor-version"');
  assert.equal(live.headers.get('deprecation'), null);
});

test('water-level: a gauge without a W series (404) is left out; none left is no_data', async () => {
  const r = await ctx.app.get('/api/v1/live/berlin/water-level');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /current water level/);
  assert.ok(fake.count(`${BASE}/stations/ee52ce62-212c-4735-b438-26fbdc37e3e2/W.json`) >= 1);
});

test('water-level: a covered city without a gauge in reach is no_data', async () => {
  const r = await ctx.app.get('/api/v1/live/potsdam/water-level');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /no PEGELONLINE gauge within 10 km/);
});

test('water-level: a city without a federal waterway is not_covered with the covered cities', async () => {
  const r = await ctx.app.get('/api/v1/live/muenchen/water-level');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.equal(at(r.json, 'data'), null);
  assert.ok(list<string>(r.json, 'meta.covered_cities').includes('koeln'));
  assert.equal(fake.count(BASE), 0);
  const alias = await ctx.app.get('/api/v1/cities/muenchen/water-level');
  assert.equal(at(alias.json, 'meta.source_status'), 'not_covered');
  assert.equal(alias.headers.get('link'), '</api/v1/live/muenchen/water-level>; rel="successor-version"');
});

test('compare resource water-level: the nearest gauge per city', async () => {
  const r = await ctx.app.get('/api/v1/compare?cities=koeln,muenchen&resource=water-level');
  assert.equal(r.status, 200);
  const by = Object.fromEntries(list<{ city: string }>(r.json, 'data').map((i) => [i.city, i]));
  assert.equal(at(by, 'koeln.data.value_cm'), 66);
  assert.equal(at(by, 'koeln.data.gauges'), 1);
  assert.equal(at(by, 'muenchen.source_status'), 'no_data');
});

test('water-level: PEGELONLINE_ENABLED=false is disabled without an upstream call', async () => {
  await expectDisabled({
    fake,
    env: { PEGELONLINE_ENABLED: 'false' },
    path: ['/api/v1/live/koeln/water-level', '/api/v1/cities/koeln/water-level'],
    upstreamPrefix: BASE,
  });
});

test('water-level: dead upstream with nothing cached is a 503 problem, on the alias with Deprecation', async () => {
  await expectUnavailable({ fake, path: ['/api/v1/live/koeln/water-level', '/api/v1/cities/koeln/water-level'] });
});

test('water-level: malformed upstream bodies are a 503 problem, never a 500', async () => {
  for (const broken of [
    () => fake.get(`${BASE}/stations.json`, { body: '<html>Wartung</html>', headers: { 'content-type': 'text/html' } }),
    () => fake.get(`${BASE}/stations.json`, { json: { stations: 'none' } }),
    () => fake.get(/\/W\.json$/, { body: 'not json' }),
  ]) {
    registerPegelonline(fake);
    broken();
    const fresh = await startApp(fakeEnv(fake.url));
    try {
      const r = await fresh.get('/api/v1/live/koeln/water-level');
      assert.equal(r.status, 503);
      assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    } finally {
      await fresh.close();
    }
  }
});
