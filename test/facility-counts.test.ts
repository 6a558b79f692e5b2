import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerOverpass } from './fixtures/overpass/routes.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { POI_TYPE_BY_ID } from '../src/sources/overpass/poi-types.ts';
import { refreshPois } from '../src/jobs/pois/refresh.ts';
import { EDUCATION_FACILITIES, HEALTH_FACILITIES } from '../src/catalog/society.ts';
import { nth } from './helpers/must.ts';
import { at, str, list } from './helpers/json.ts';

const ctx = useFakeApp(registerOverpass);
const { fake } = ctx;

/** The POI precompute on the built Overpass answers (Berlin's facilities; zero counts elsewhere). */
async function precompute(slug: string, types: readonly string[]) {
  const city = CITY_BY_SLUG.get(slug)!;
  const s = await refreshPois(ctx.app.rt, [city], { pauseMs: 0, backoffMs: 10, maxRetries: 0, types: types.map((t) => POI_TYPE_BY_ID.get(t)!) });
  assert.deepEqual({ ok: s.ok, requests: s.requests }, { ok: 1, requests: 1 });
}

test('health and education: no_data before the POI precompute, never a live Overpass call', async () => {
  for (const type of ['health', 'education']) {
    const r = await ctx.app.get(`/api/v1/cities/berlin/${type}`);
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  }
  assert.equal(fake.count('/api/interpreter'), 0);
});

test('health: counts of the precomputed Overpass answers with rates per 100,000 and the OSM timestamp', async () => {
  await precompute('berlin', HEALTH_FACILITIES);
  const r = await ctx.app.get('/api/v1/cities/berlin/health');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const facilities = list<{ type: string; count: number; per_100k_inhabitants: number; osm_base: string }>(r.json, 'data.facilities');
  const hospital = nth(facilities, 0);
  const doctors = nth(facilities, 1);
  assert.equal(hospital.type, 'hospital');
  assert.ok(hospital.count > 0);
  assert.equal(hospital.per_100k_inhabitants, Math.round((hospital.count / CITY_BY_SLUG.get('berlin')!.population) * 1e6) / 10);
  assert.equal(hospital.osm_base, '2026-08-01T09:24:36+02:00');
  assert.equal(doctors.count, 2);
  assert.match(str(r.json, 'attribution.text'), /OpenStreetMap/);
});

test('education: a type not yet counted has count null; the others answer', async () => {
  await precompute('berlin', ['school']);
  const r = await ctx.app.get('/api/v1/cities/berlin/education');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(
    list<{ type: string; count: number | null }>(r.json, 'data.facilities').map((f) => [f.type, f.count]),
    [
      ['school', 3],
      ['kindergarten', null],
      ['university', null],
    ],
  );
  assert.equal(EDUCATION_FACILITIES.length, 3);
});

test('facility counts: 404 unknown city, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/health');
  await expectDisabled({ fake, env: { OVERPASS_ENABLED: 'false' }, path: ['/api/v1/cities/berlin/health', '/api/v1/cities/berlin/education'] });
});
