import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, str } from './helpers/json.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { nth } from './helpers/must.ts';
import { fakeEnv, startApp, type TestResponse } from './helpers/app.ts';
import { VRN, register as registerVrnParkRide, vrnLayer } from './fixtures/vrn-park-ride/routes.ts';
import { parseVrnAddress, parseVrnSites } from '../src/sources/vrn-park-ride/sites.ts';

const ctx = useFakeApp(registerVrnParkRide);
const { fake } = ctx;
const QUERY = '/data/rest/services/P_R_Sensorik__Realtime_/FeatureServer/1/query';

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path);

interface Site {
  id: string;
  name: string | null;
  distance_km: number | null;
  capacity: number | null;
  free_spaces: number | null;
  occupancy_share: number | null;
  post_code: string | null;
  place: string | null;
  updated_at: string | null;
}

test('parser: the real VRN layer: sensor counts, epoch-ms time of the misspelt field, both address styles', () => {
  const sites = parseVrnSites(JSON.parse(fixture(VRN).toString()));
  assert.equal(sites.length, 16);
  const wiesloch = nth(sites, 0);
  assert.equal(wiesloch.capacity, 263);
  assert.equal(wiesloch.free_spaces, 234);
  assert.equal(wiesloch.updated_at, '2026-07-06T19:06:28+02:00');
  assert.equal(wiesloch.post_code, '69168');
  assert.equal(wiesloch.place, 'Wiesloch');
  assert.equal(wiesloch.state, 'unknown');
  const bensheim = sites.find((s) => s.name === 'P+R Bensheim-Auerbach');
  assert.equal(bensheim?.free_spaces, null, 'no sensor value');
  assert.equal(bensheim?.updated_at, null);
  assert.deepEqual(parseVrnAddress('Bahnhofsvorplatz 1,67454,Haßloch'), {
    street: 'Bahnhofsvorplatz',
    house_number: '1',
    post_code: '67454',
    place: 'Haßloch',
  });
  assert.deepEqual(parseVrnAddress('Am Güterbahnhof,69181,Leimen'), { street: 'Am Güterbahnhof', house_number: null, post_code: '69181', place: 'Leimen' });
});

test('GET park-and-ride: Heidelberg sites within 20 km, nearest first, live counts and occupancy share', async () => {
  const r = await ctx.app.get('/api/v1/cities/heidelberg/park-and-ride');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const sites = list<Site>(r.json, 'data');
  assert.equal(sites.length, 9);
  assert.equal(sites[0]?.name, 'P+R Neckargemünd');
  assert.equal(sites[0]?.distance_km, 6.4);
  assert.equal(sites[0]?.free_spaces, 37);
  assert.equal(sites[0]?.occupancy_share, 0.178);
  for (const s of sites) assert.ok((s.distance_km ?? 99) <= 20);
  assert.ok(Date.now() - Date.parse(str(r.json, 'data.0.updated_at')) < 48 * 3600_000);
  assert.equal(at(r.json, 'attribution.tier'), 'C');
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.equal(q.get('f'), 'geojson');
});

test('park-and-ride: the layer is fetched once for the three Rhein-Neckar cities', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    for (const c of ['heidelberg', 'mannheim', 'ludwigshafen-am-rhein'])
      assert.equal(at((await app.get(`/api/v1/cities/${c}/park-and-ride`)).json, 'meta.source_status'), 'ok');
    assert.equal(fake.count(QUERY), 1);
  } finally {
    await app.close();
  }
});

test('park-and-ride: sensor values older than 48 h are dropped, never shown as live', async () => {
  fake.get(QUERY, vrnLayer(false));
  const r = await freshGet('/api/v1/cities/heidelberg/park-and-ride');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  for (const s of list<Site>(r.json, 'data')) {
    assert.equal(s.free_spaces, null);
    assert.equal(s.occupancy_share, null);
  }
});

test('park-and-ride: an empty layer is no_data; another city is not_covered', async () => {
  fake.get(QUERY, { json: { type: 'FeatureCollection', features: [] } });
  const r = await freshGet('/api/v1/cities/heidelberg/park-and-ride');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  const n = await ctx.app.get('/api/v1/cities/muenchen/park-and-ride');
  assert.equal(at(n.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(n.json, 'meta.covered_cities'), ['freiburg-im-breisgau', 'heidelberg', 'ludwigshafen-am-rhein', 'mannheim']);
});

test('park-and-ride: an ArcGIS error body or a dead upstream is 503, never 500; switched off is disabled', async () => {
  fake.get(QUERY, { json: { error: { code: 500, message: 'Error performing query operation', details: [] } } });
  const r = await freshGet('/api/v1/cities/heidelberg/park-and-ride');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  await expectUnavailable({ fake, path: '/api/v1/cities/mannheim/park-and-ride' });
  await expectDisabled({ fake, env: { VRN_PARK_RIDE_ENABLED: 'false' }, path: '/api/v1/cities/heidelberg/park-and-ride' });
});
