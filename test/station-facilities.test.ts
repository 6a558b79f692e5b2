import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, str } from './helpers/json.ts';
import { expectUnavailable } from './helpers/status-rules.ts';
import { nth } from './helpers/must.ts';
import { fakeEnv, startApp, type TestResponse } from './helpers/app.ts';
import { FASTA_FACILITIES_PATH, FFM_DA, JENA, register as registerDbFasta } from './fixtures/db-fasta/routes.ts';
import { parseFacilities } from '../src/sources/db-fasta/facilities.ts';

const CREDS = { DB_CLIENT_ID: 'test-client', DB_API_KEY: 'test-key' };
const ctx = useFakeApp(registerDbFasta, { env: CREDS, keyless: true });
const { fake } = ctx;

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path, CREDS);

interface Facility {
  equipment_number: string;
  type: string;
  description: string | null;
  state: string;
  station_number: number | null;
  distance_km: number;
  operator: string | null;
}

test('parser: FaSta items, missing members null, both list forms', () => {
  const all = parseFacilities(JSON.parse(fixture(FFM_DA).toString()));
  assert.equal(all.length, 9);
  assert.deepEqual(nth(all, 0), {
    equipment_number: '10561326',
    type: 'elevator',
    description: 'FFM HBF zu Gleis 101/102 (S-Bahn)',
    state: 'active',
    state_explanation: 'available',
    station_number: 1866,
    operator: 'DB InfraGO',
    lat: 50.1072933,
    lon: 8.6628995,
  });
  const bare = nth(all, 3);
  assert.equal(bare.station_number, null);
  assert.equal(bare.operator, null);
  assert.equal(bare.state_explanation, null);
  const jena = parseFacilities({ facilities: JSON.parse(fixture(JENA).toString()) });
  assert.equal(nth(jena, 0).station_number, 3043);
  assert.equal(parseFacilities([{ equipmentnumber: 1, type: 'ESCALATOR', state: 'INACTIVE' }])[0]?.state, 'inactive');
  assert.throws(() => parseFacilities({ error: 'x' }), /no list/);
});

test('GET station-facilities: Frankfurt keeps its three elevators, Darmstadt is left out; marketplace headers sent', async () => {
  const r = await ctx.app.get('/api/v1/cities/frankfurt-am-main/station-facilities');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const f = list<Facility>(r.json, 'data');
  assert.deepEqual(
    f.map((x) => x.equipment_number),
    ['10351032', '10561326', '10561327'],
  );
  assert.equal(f[0]?.description, 'HAUPTWACHE zu Gleis 2/3 (S-Bahn)');
  assert.equal(f[0]?.type, 'elevator');
  assert.equal(at(r.json, 'meta.inactive'), 0);
  const req = nth(fake.requests, 0);
  assert.equal(req.headers['db-client-id'], 'test-client');
  assert.equal(new URL(req.url, 'http://x').searchParams.get('type'), 'ELEVATOR,ESCALATOR');
  assert.match(str(r.json, 'attribution.text'), /FaSta/);
});

test('station-facilities: the national list is fetched once for several cities; a city without any is no_data', async () => {
  const app = await startApp({ ...fakeEnv(fake.url), ...CREDS });
  try {
    assert.equal(at((await app.get('/api/v1/cities/darmstadt/station-facilities')).json, 'meta.source_status'), 'ok');
    const none = await app.get('/api/v1/cities/rostock/station-facilities');
    assert.equal(at(none.json, 'meta.source_status'), 'no_data');
    assert.match(str(none.json, 'meta.reason'), /no DB elevator/);
    assert.equal(fake.count(FASTA_FACILITIES_PATH), 1);
  } finally {
    await app.close();
  }
});

test('station-facilities: without DB credentials disabled, naming them, and nothing is called', async () => {
  const r = await ctx.keyless.get('/api/v1/cities/frankfurt-am-main/station-facilities');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'disabled');
  assert.match(str(r.json, 'meta.disabled_reason'), /DB_CLIENT_ID, DB_API_KEY/);
  assert.equal(fake.count(), 0);
});

test('station-facilities: a gateway error body or a dead upstream is 503, never 500', async () => {
  fake.get(FASTA_FACILITIES_PATH, { json: { httpCode: '500', httpMessage: 'Internal Server Error' } });
  const r = await freshGet('/api/v1/cities/frankfurt-am-main/station-facilities');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  await expectUnavailable({ fake, env: CREDS, path: '/api/v1/cities/frankfurt-am-main/station-facilities' });
});
