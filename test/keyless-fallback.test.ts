import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { GENESIS_FIXTURE_CREDENTIALS } from './fixtures/genesis/routes.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { dataSchemaOf } from '../src/core/data-type.ts';
import { at, num, str } from './helpers/json.ts';

const ctx = useFakeApp(registerAllFixtures, { keyless: true, env: GENESIS_FIXTURE_CREDENTIALS });

test('demographics without Regionaldatenbank credentials: the precomputed GV-ISys population answers, meta names the source', async () => {
  const before = ctx.fake.count();
  const r = await ctx.keyless.get('/api/v1/cities/koeln/demographics');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(str(r.json, 'meta.answered_by'), 'destatis-gv-isys');
  assert.equal(str(r.json, 'meta.source'), 'destatis-gv-isys');
  assert.equal(str(r.json, 'meta.fallback_for'), 'genesis-regionalstatistik');
  assert.match(str(r.json, 'attribution.text'), /Gemeindeverzeichnis/);
  const koeln = CITY_BY_SLUG.get('koeln')!;
  assert.equal(num(r.json, 'data.population'), koeln.population);
  assert.equal(at(r.json, 'data.population_male'), null);
  assert.equal(str(r.json, 'data.region_key'), koeln.ags);
  assert.equal(num(r.json, 'meta.area_km2'), koeln.area_km2);
  assert.ok(num(r.json, 'meta.density_per_km2') > 2000);
  dataSchemaOf(CATALOG.byType.get('demographics')!).parse(at(r.json, 'data'));
  assert.equal(ctx.fake.count(), before, 'precomputed: no upstream call');
  // Compare and the overview see it too.
  const c = await ctx.keyless.get('/api/v1/compare?resource=demographics&cities=koeln,berlin&sort=value&order=desc');
  assert.deepEqual(
    (at(c.json, 'data') as { city: string; source_status: string }[]).map((i) => [i.city, i.source_status]),
    [
      ['berlin', 'ok'],
      ['koeln', 'ok'],
    ],
  );
  const o = await ctx.keyless.get('/api/v1/cities/koeln/overview');
  const row = (at(o.json, 'data.data_types') as { type: string; available: boolean }[]).find((d) => d.type === 'demographics');
  assert.equal(row?.available, true);
});

test('demographics with credentials: the Regionaldatenbank answers, no fallback meta', async () => {
  const app = ctx.app;
  const r = await app.get('/api/v1/cities/koeln/demographics');
  assert.equal(at(r.json, 'meta.answered_by'), undefined);
  assert.equal(str(r.json, 'meta.source'), 'genesis-regionalstatistik');
});

test('/api/v1/sources explains credentials: variables, registration, what they unlock', async () => {
  const r = await ctx.keyless.get('/api/v1/sources?limit=all');
  const genesis = (at(r.json, 'data') as { source: string }[]).find((s) => s.source === 'genesis-regionalstatistik');
  assert.deepEqual(at(genesis, 'credential_variables'), ['GENESIS_USERNAME', 'GENESIS_PASSWORD']);
  assert.deepEqual(at(genesis, 'missing_credentials'), ['GENESIS_USERNAME', 'GENESIS_PASSWORD']);
  assert.equal(at(genesis, 'registration.free'), true);
  assert.match(str(genesis, 'registration.url'), /^https:\/\//);
  assert.ok((at(genesis, 'unlocks') as string[]).includes('demographics'));
  const gv = (at(r.json, 'data') as { source: string }[]).find((s) => s.source === 'destatis-gv-isys');
  assert.deepEqual(at(gv, 'fallback_for'), ['demographics']);
  assert.equal(at(gv, 'credentials'), 'none');
});
