import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { at, list, num } from './helpers/json.ts';
import { expectDisabled } from './helpers/status-rules.ts';
import { register as registerOverpass } from './fixtures/overpass/routes.ts';
import { refreshPois } from '../src/jobs/pois/refresh.ts';
import { POI_TYPE_BY_ID } from '../src/sources/overpass/poi-types.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { must } from './helpers/must.ts';

const ctx = useFakeApp(registerOverpass);
const { fake } = ctx;
const bikeType = must(POI_TYPE_BY_ID.get('bicycle_parking'), 'bicycle_parking POI type');
const city = (slug: string) => must(CITY_BY_SLUG.get(slug), slug);

interface Item {
  name: string | null;
  capacity: number | null;
  covered: boolean | null;
  type: string | null;
  fee: boolean | null;
  osm_type: string;
}

test('bike-parking: before the precompute no_data, never a live call', async () => {
  const r = await ctx.app.get('/api/v1/cities/hamburg/bike-parking');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(fake.count(), 0);
});

test('bike-parking: the precompute keeps capacity, covered, kind and fee; the answer carries them with totals', async () => {
  const s = await refreshPois(ctx.app.rt, [city('berlin')], { pauseMs: 0 });
  assert.equal(s.ok, 1);
  const r = await ctx.app.get('/api/v1/cities/berlin/bike-parking');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(num(r.json, 'data.total_available'), 4);
  assert.equal(num(r.json, 'data.sample_capacity'), 492);
  // covered: yes (lockers), yes (building), no (stands); the wall loops have no tag
  assert.equal(num(r.json, 'data.covered_share'), 0.667);
  const items = list<Item>(r.json, 'data.items');
  const house = items.find((i) => i.name === 'Fahrradparkhaus Potsdamer Platz');
  assert.equal(house?.capacity, 420);
  assert.equal(house?.covered, true);
  assert.equal(house?.type, 'building');
  assert.equal(house?.fee, false);
  assert.equal(house?.osm_type, 'way');
  const loops = items.find((i) => i.type === 'wall_loops');
  assert.equal(loops?.covered, null);
  // The POI record itself stays without the kept tags.
  const pois = await ctx.app.get('/api/v1/cities/berlin/pois?type=bicycle_parking');
  assert.equal(at(pois.json, 'meta.source_status'), 'ok');
  assert.equal(at(pois.json, 'data.items.0.tags'), undefined);
});

test('bike-parking: a city where OSM maps none is no_data with the reason', async () => {
  await refreshPois(ctx.app.rt, [city('bottrop')], { pauseMs: 0, types: [bikeType] });
  const r = await ctx.app.get('/api/v1/cities/bottrop/bike-parking');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(String(at(r.json, 'meta.reason')), /no bicycle parking/);
});

test('bike-parking: a failed precompute (garbage answer) stores nothing and the type stays no_data, never 500', async () => {
  fake.post('/api/interpreter', { body: '<html>Too Many Requests</html>', headers: { 'content-type': 'text/html' } });
  const s = await refreshPois(ctx.app.rt, [city('kiel')], { pauseMs: 0, maxRetries: 0 });
  assert.equal(s.failed, 1);
  const r = await ctx.app.get('/api/v1/cities/kiel/bike-parking');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
});

test('bike-parking: Overpass switched off is disabled', async () => {
  await expectDisabled({ fake, env: { OVERPASS_ENABLED: 'false' }, path: '/api/v1/cities/berlin/bike-parking' });
});
