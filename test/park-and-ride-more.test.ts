import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParkAndRideRecord } from '../src/core/records/mobility.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at, list, str } from './helpers/json.ts';
import { expectDisabled } from './helpers/status-rules.ts';
import { fakeEnv, startApp, type TestResponse } from './helpers/app.ts';
import { geojson } from './fixtures/city-parking/routes.ts';
import { PARKAPI_FILES, PARKAPI_PATH, register as registerParkapiV3 } from './fixtures/parkapi-v3/routes.ts';
import { register as registerVrnParkRide } from './fixtures/vrn-park-ride/routes.ts';
import type { FakeUpstream } from './helpers/fake-upstream.ts';

const ctx = useFakeApp((fake: FakeUpstream) => {
  registerVrnParkRide(fake);
  registerParkapiV3(fake);
});
const { fake } = ctx;

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path);

/** An answer's item, as the record declares it. */
type Site = ParkAndRideRecord;

const PATH = '/api/v1/cities/freiburg-im-breisgau/park-and-ride';

test("GET park-and-ride: Freiburg's P+R sites through ParkAPI v3, live and static, each once, nearest first", async () => {
  const r = await ctx.app.get(PATH);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const sites = list<Site>(r.json, 'data');
  // 5 sensor sites + 3 static ones, Bissierstraße listed by both layers
  assert.equal(sites.length, 7);
  assert.deepEqual(at(r.json, 'meta.duplicates_left_out'), { 'parkapi-freiburg-p-r-static': 1 });
  assert.deepEqual(at(r.json, 'meta.merged_sources'), ['parkapi-freiburg-p-r-sensors', 'parkapi-freiburg-p-r-static']);
  const bissier = sites.filter((s) => s.name === 'Bissierstraße');
  assert.equal(bissier.length, 1);
  assert.equal(bissier[0]?.free_spaces, 31, 'the sensor layer keeps its count');
  assert.equal(bissier[0]?.capacity, 125);
  const padua = sites.find((s) => s.name === 'Paduaallee');
  assert.equal(padua?.free_spaces, 72);
  assert.equal(padua?.occupancy_share, 0.66);
  assert.equal(padua?.license, 'DL-DE/BY 2.0 (Stadt Freiburg im Breisgau)');
  assert.equal(sites.find((s) => s.name === 'Moosweiher')?.state, 'closed');
  const schule = sites.find((s) => s.name === 'Berufsschulzentrum');
  assert.equal(schule?.capacity, 212);
  assert.equal(schule?.free_spaces, null);
  assert.equal(schule?.live, false);
  const d = sites.map((s) => s.distance_km ?? Infinity);
  assert.deepEqual(
    d,
    [...d].sort((a, b) => a - b),
  );
  assert.match(str(r.json, 'attribution.text'), /MobiData BW/);
  assert.equal(fake.count('/data/rest/services'), 0, 'the VRN layer is not asked for Freiburg');
});

test('park-and-ride: a sensor layer frozen for 48 h keeps its sites without counts, never live', async () => {
  fake.get(PARKAPI_PATH, (_req, url) => {
    const uid = url.searchParams.get('source_uid') ?? '';
    return geojson(PARKAPI_FILES[uid]!, uid !== 'freiburg_p_r_sensors');
  });
  const r = await freshGet(PATH);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  for (const s of list<Site>(r.json, 'data')) assert.equal(s.free_spaces, null, s.name ?? '');
});

test('park-and-ride: nothing near, a malformed body or a dead upstream: no_data or 503, never 500; elsewhere not_covered', async () => {
  fake.get(PARKAPI_PATH, { json: { items: [] } });
  const e = await freshGet(PATH);
  assert.equal(at(e.json, 'meta.source_status'), 'no_data');
  fake.get(PARKAPI_PATH, { body: 'not json', headers: { 'content-type': 'application/json' } });
  const m = await freshGet(PATH);
  assert.equal(m.status, 503);
  assert.equal(at(m.json, 'code'), 'upstream_unavailable');
  fake.get(PARKAPI_PATH, { status: 500, body: 'Internal Server Error' });
  const d = await freshGet(PATH);
  assert.equal(d.status, 503);
  const n = await ctx.app.get('/api/v1/cities/stuttgart/park-and-ride');
  assert.equal(at(n.json, 'meta.source_status'), 'not_covered');
  assert.ok((at(n.json, 'meta.covered_cities') as string[]).includes('freiburg-im-breisgau'));
});

test('park-and-ride: ParkAPI switched off disables Freiburg only; the VRN cities still answer', async () => {
  await expectDisabled({ fake, env: { PARKAPI_V3_ENABLED: 'false' }, path: PATH, upstreamPrefix: PARKAPI_PATH });
  const app = await startApp({ ...fakeEnv(fake.url), PARKAPI_V3_ENABLED: 'false' });
  try {
    const h = await app.get('/api/v1/cities/heidelberg/park-and-ride');
    assert.equal(at(h.json, 'meta.source_status'), 'ok');
  } finally {
    await app.close();
  }
});
