import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { GENESIS_FIXTURE_CREDENTIALS, register as registerGenesis } from './fixtures/genesis/routes.ts';
import { nth } from './helpers/must.ts';
import { at, str, obj } from './helpers/json.ts';
import { SqliteStore } from '../src/store/sqlite.ts';

const ctx = useFakeApp(registerGenesis, { env: GENESIS_FIXTURE_CREDENTIALS, keyless: true });
const { fake } = ctx;
const tableRequests = () => fake.requests.filter((r) => r.url.includes('/data/tablefile')).map((r) => new URLSearchParams(r.body));

test('GET land-values: the recorded building-land prices of Köln, units converted', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/land-values');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = obj(r.json, 'data');
  assert.equal(d.year, '2024');
  assert.equal(d.region_key, '05315');
  assert.deepEqual(d.building_land, { price_eur_m2: 778.43, sales: 116, area_m2: 189000, purchase_sum_eur: 147155000 });
  assert.equal(d.standard_land_values, null);
  assert.match(str(d, 'standard_land_values_note'), /shapefile/);
  const q = nth(tableRequests(), 0);
  assert.equal(q.get('name'), '61511-01-03-4');
  assert.equal(q.get('regionalvariable'), 'KREISE');
  assert.equal(q.get('regionalkey'), '05315');
});

test('land-values: secret cells stay null; building-ready land only where published', async () => {
  const r = await ctx.app.get('/api/v1/cities/mannheim/land-values');
  assert.equal(at(r.json, 'data.building_ready_land.price_eur_m2'), 738.08);
  assert.equal(at(r.json, 'data.building_ready_land.area_m2'), null);
  assert.equal(at(r.json, 'data.building_land.price_eur_m2'), 229.47);
});

test('land-values: a kreisangehörige city never gets its district value; no row is no_data', async () => {
  // Saarbrücken: kreisangehörig, and Saarland has no open BORIS service to answer instead.
  const h = await ctx.app.get('/api/v1/cities/saarbruecken/land-values');
  assert.equal(at(h.json, 'meta.source_status'), 'no_data');
  assert.match(str(h.json, 'meta.reason'), /per district only/);
  assert.equal(tableRequests().length, 0, 'not even asked');
  const kiel = await ctx.app.get('/api/v1/cities/kiel/land-values');
  assert.equal(at(kiel.json, 'meta.source_status'), 'no_data');
});

test('land-values: without credentials the keyless BORIS part answers (nothing for NRW); disabled with BORIS off too; unknown city 404; dead upstream 503', async () => {
  const keyless = await ctx.keyless.get('/api/v1/cities/koeln/land-values');
  assert.equal(at(keyless.json, 'meta.answered_by'), 'boris-wfs');
  assert.equal(at(keyless.json, 'meta.source_status'), 'no_data');
  assert.match(str(keyless.json, 'meta.reason'), /GENESIS_USERNAME/);
  const app = await startApp({ ...fakeEnv(fake.url), BORIS_ENABLED: 'false' });
  try {
    const off = await app.get('/api/v1/cities/koeln/land-values');
    assert.equal(at(off.json, 'meta.source_status'), 'disabled');
    assert.match(str(off.json, 'meta.disabled_reason'), /GENESIS_USERNAME/);
  } finally {
    await app.close();
  }
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/land-values');
  await expectUnavailable({ fake, env: GENESIS_FIXTURE_CREDENTIALS, path: '/api/v1/cities/berlin/land-values' });
});

test('land-values: a malformed table answer is a 503 problem', async () => {
  fake.post('/genesisws/rest/2020/data/tablefile', { body: '<html><body>Wartungsarbeiten</body></html>', headers: { 'content-type': 'text/html' } });
  const app = await startApp({ ...fakeEnv(fake.url), ...GENESIS_FIXTURE_CREDENTIALS });
  try {
    const r = await app.get('/api/v1/cities/koeln/land-values');
    assert.equal(r.status, 503);
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  } finally {
    await app.close();
  }
});

test('land-values: a spent GENESIS call budget is said as such (503 with Retry-After), not as an unreachable upstream', async () => {
  const store = new SqliteStore(':memory:');
  // The gate counts calls per clock minute in the store (pipeline/rate-gate.ts): this minute's and the next are spent.
  const minute = Math.floor(Date.now() / 60_000);
  for (const w of [minute, minute + 1]) for (let i = 0; i < 120; i++) await store.incr(`ratelimit:genesis-regionalstatistik:${w}`, 120_000);
  const app = await startApp({ ...fakeEnv(fake.url), ...GENESIS_FIXTURE_CREDENTIALS, BORIS_ENABLED: 'false' }, { store });
  try {
    const r = await app.get('/api/v1/cities/koeln/land-values');
    assert.equal(r.status, 503);
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    assert.match(str(r.json, 'detail'), /call budget for Regionaldatenbank Deutschland \(GENESIS\) is used up/);
    assert.doesNotMatch(str(r.json, 'detail'), /unreachable/);
    assert.ok(Number(r.headers.get('retry-after')) >= 1, 'Retry-After says when the budget has room');
  } finally {
    await app.close();
  }
});
