import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeUpstream } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { register as registerOverpass } from './fixtures/overpass/routes.ts';
import { GENESIS_FIXTURE_CREDENTIALS, register as registerGenesis } from './fixtures/genesis/routes.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { POI_TYPE_BY_ID } from '../src/sources/overpass/poi-types.ts';
import { refreshPois } from '../src/jobs/pois/refresh.ts';
import { EDUCATION_FACILITIES, HEALTH_FACILITIES } from '../src/catalog/society.ts';
import { at, list, str } from './helpers/json.ts';

const register = (fake: FakeUpstream) => {
  registerOverpass(fake);
  registerGenesis(fake);
};
const ctx = useFakeApp(register, { env: GENESIS_FIXTURE_CREDENTIALS, keyless: true });
const { fake } = ctx;

async function precompute(app: TestApp, slug: string, types: readonly string[]) {
  const city = CITY_BY_SLUG.get(slug)!;
  const s = await refreshPois(app.rt, [city], { pauseMs: 0, backoffMs: 10, maxRetries: 0, types: types.map((t) => POI_TYPE_BY_ID.get(t)!) });
  assert.equal(s.ok, 1);
}

test('education: OSM counts and the official school and leaver tables, each part with its own source', async () => {
  await precompute(ctx.app, 'berlin', EDUCATION_FACILITIES);
  const r = await ctx.app.get('/api/v1/cities/berlin/education');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(list(r.json, 'data.facilities').length, 3);
  assert.match(str(r.json, 'attribution.text'), /OpenStreetMap/);
  assert.equal(at(r.json, 'data.official.schools.schools'), 820);
  assert.equal(at(r.json, 'data.official.schools.pupils'), 376400);
  assert.equal(at(r.json, 'data.official.schools.table'), '21111-01-03-4');
  assert.equal(at(r.json, 'data.official.school_leavers.leavers'), 31450);
  assert.equal(at(r.json, 'data.official.school_leavers.period'), '2024');
  assert.equal(list(r.json, 'data.official.school_leavers.by_qualification').length, 4);
  assert.equal(at(r.json, 'data.official.school_leavers.license'), 'dl-de/by-2-0');
  assert.match(str(r.json, 'data.official.school_leavers.attribution'), /Regionaldatenbank/);
  assert.deepEqual(at(r.json, 'meta.official_reasons'), {});
});

test('health: official hospitals and beds; the newest year keeps its placeholder patients as null', async () => {
  await precompute(ctx.app, 'berlin', HEALTH_FACILITIES);
  const r = await ctx.app.get('/api/v1/cities/berlin/health');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.official.hospitals.period'), '2023');
  assert.equal(at(r.json, 'data.official.hospitals.hospitals'), 82);
  assert.equal(at(r.json, 'data.official.hospitals.beds'), 21035);
  assert.equal(at(r.json, 'data.official.hospitals.patients'), null);
  const pop = CITY_BY_SLUG.get('berlin')!.population;
  assert.equal(at(r.json, 'data.official.hospitals.beds_per_10k_inhabitants'), Math.round((21035 / pop) * 100_000) / 10);
});

test('compare health sorts by official beds per 10,000 inhabitants; a kreisangehörige city has none', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=health&cities=aachen,koeln&sort=value');
  assert.equal(r.status, 200);
  assert.equal(str(r.json, 'meta.value_field'), 'official.hospitals.beds_per_10k_inhabitants');
  const rows = list<{ city: string; value: number | null }>(r.json, 'data');
  assert.equal(rows[0]?.city, 'koeln');
  assert.equal(rows[0]?.value, Math.round((7390 / CITY_BY_SLUG.get('koeln')!.population) * 100_000) / 10);
  assert.equal(rows[1]?.value, null);
});

test('without GENESIS credentials the types still answer ok, official parts null naming the credentials', async () => {
  await precompute(ctx.keyless, 'berlin', HEALTH_FACILITIES);
  const r = await ctx.keyless.get('/api/v1/cities/berlin/health');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.official.hospitals'), null);
  assert.match(str(r.json, 'meta.official_reasons.hospitals'), /GENESIS_USERNAME, GENESIS_PASSWORD/);
  assert.equal(fake.count('/genesisws'), 0);
});

test('official figures alone answer ok before the POI precompute (counts null, reason in meta)', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/health');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.official.hospitals.beds'), 7390);
  assert.ok(list<{ count: number | null }>(r.json, 'data.facilities').every((f) => f.count === null));
  assert.match(str(r.json, 'meta.facilities_reason'), /precompute/);
  assert.equal(fake.count('/api/interpreter'), 0);
});

test('a kreisangehörige city never gets its district value: no_data without counts, reasons per part', async () => {
  const r = await ctx.app.get('/api/v1/cities/aachen/education');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.official_reasons.schools'), /per district only/);
  assert.match(str(r.json, 'meta.official_reasons.school_leavers'), /per district only/);
  assert.equal(fake.count('/genesisws'), 0);
});

test('a malformed Regionaldatenbank answer leaves the OSM part standing', async () => {
  fake.post('/genesisws/rest/2020/data/tablefile', { body: 'PK\u0003\u0004 not a zip', headers: { 'content-type': 'application/zip' } });
  const fresh = await startApp({ ...fakeEnv(fake.url), ...GENESIS_FIXTURE_CREDENTIALS });
  try {
    await precompute(fresh, 'berlin', HEALTH_FACILITIES);
    const r = await fresh.get('/api/v1/cities/berlin/health');
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(at(r.json, 'data.official.hospitals'), null);
    assert.match(str(r.json, 'meta.official_reasons.hospitals'), /did not answer/);
    assert.doesNotMatch(JSON.stringify(r.json), /not a zip/);
  } finally {
    await fresh.close();
  }
});

test('Regionaldatenbank switched off: official parts null with the toggle named, never called', async () => {
  const fresh = await startApp({ ...fakeEnv(fake.url), ...GENESIS_FIXTURE_CREDENTIALS, GENESIS_ENABLED: 'false' });
  try {
    const r = await fresh.get('/api/v1/cities/koeln/education');
    assert.equal(at(r.json, 'meta.source_status'), 'no_data');
    assert.match(str(r.json, 'meta.official_reasons.schools'), /GENESIS_ENABLED=false/);
    assert.equal(fake.count('/genesisws'), 0);
  } finally {
    await fresh.close();
  }
});
