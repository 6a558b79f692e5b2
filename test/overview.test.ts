import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectUnknownCity } from './helpers/status-rules.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { at, list, obj, str } from './helpers/json.ts';

const ctx = useFakeApp(registerAllFixtures, { env: { OVERVIEW_BUDGET_MS: '500' } });
const { fake } = ctx;

test('overview: city, data_types generated from the catalog, highlights, computed summary', async () => {
  // Freiburg's: the weather recording is of Freiburg (a tolerant slug is resolved like everywhere).
  const r = await ctx.app.get('/api/v1/cities/Freiburg/overview');
  assert.equal(r.status, 200);
  const d = at(r.json, 'data');
  assert.deepEqual(Object.keys(obj(d)).sort(), ['city', 'data_types', 'highlights', 'links', 'summary']);
  // The pages about the city, canonical slug whatever the request spelled.
  assert.deepEqual(at(d, 'links'), { explorer: '/explore/freiburg-im-breisgau', coverage: '/coverage/freiburg-im-breisgau' });
  assert.equal(at(d, 'city.slug'), 'freiburg-im-breisgau');
  assert.equal(typeof at(d, 'city.location.lat'), 'number');
  assert.equal(typeof at(d, 'city.inhabitants.count'), 'number');
  const perCity = CATALOG.all.filter((dt) => dt.scope !== 'global');
  assert.deepEqual(
    list<{ type: string }>(d, 'data_types').map((x: { type: string }) => x.type),
    perCity.map((dt) => dt.type),
  );
  for (const item of list(d, 'data_types')) {
    for (const k of ['type', 'label', 'label_en', 'tool', 'path', 'available']) assert.ok(k in obj(item), `${str(item, 'type')}.${k}`);
    assert.ok(!str(item, 'path').includes('{'), str(item, 'path'));
  }
  assert.equal(at(d, 'summary.data_types_total'), at(d, 'data_types.length'));
  assert.equal(at(d, 'summary.data_types_available'), list<{ available: boolean }>(d, 'data_types').filter((x: { available: boolean }) => x.available).length);
  assert.equal(at(d, 'summary.cities_total'), 84);
  assert.equal(typeof at(d, 'summary.headline'), 'string');
  assert.equal(typeof at(d, 'summary.note'), 'string');
  assert.equal(at(d, 'highlights.weather.source_status'), 'ok');
  assert.equal(at(d, 'highlights.weather.data.temperature_c'), 32.1);
  assert.ok(['ok', 'no_data', 'disabled', 'error'].includes(str(d, 'highlights.air.source_status')));
});

test('overview: types not covered for the city name covered_cities and a note', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/overview');
  const uncovered = list<{ available: boolean; covered_cities?: string[] }>(r.json, 'data.data_types').filter(
    (x: { available: boolean; covered_cities?: string[] }) => x.covered_cities,
  );
  assert.ok(uncovered.length > 0, 'some data type is partial (e.g. charging-status, city departure feeds)');
  for (const u of uncovered) {
    assert.equal(u.available, false);
    assert.ok(Array.isArray(u.covered_cities) && u.covered_cities.length > 0);
    assert.ok(!u.covered_cities.includes('berlin'));
    assert.equal(typeof at(u, 'note'), 'string');
  }
});

test('overview: each highlight has its own status; a hung upstream makes its part error, never the whole answer', async () => {
  fake.get('/current_weather', { file: 'brightsky/current_weather-feldberg-2022-07-24.json', delayMs: 5000 });
  const r = await ctx.app.get('/api/v1/cities/kiel/overview');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'data.highlights.weather.source_status'), 'error');
  assert.equal(at(r.json, 'data.highlights.weather.error'), 'timeout');
  assert.equal(at(r.json, 'data.summary.cities_total'), 84);
});

test('overview: a disabled source makes its highlight disabled', async (t) => {
  const off = await startApp({ ...fakeEnv(fake.url), BRIGHTSKY_ENABLED: 'false' });
  t.after(() => off.close());
  const r = await off.get('/api/v1/cities/bonn/overview');
  assert.equal(at(r.json, 'data.highlights.weather.source_status'), 'disabled');
  const w = list<{ type: string }>(r.json, 'data.data_types').find((x: { type: string }) => x.type === 'weather');
  assert.equal(at(w, 'available'), false);
});

test('overview: unknown city is 404 with a hint', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/overview');
});

test('coverage page and /api/v1/coverage are generated from the catalog', async () => {
  const j = await ctx.app.get('/api/v1/coverage');
  assert.equal(j.status, 200);
  const perCity = CATALOG.all.filter((dt) => dt.scope !== 'global');
  assert.equal(at(j.json, 'data.length'), perCity.length);
  const cs = list<{ type: string }>(j.json, 'data').find((t: { type: string }) => t.type === 'charging-status');
  assert.equal(at(cs, 'partial'), true);
  assert.ok(list(cs, 'covered_cities').includes('stuttgart') && !list(cs, 'covered_cities').includes('berlin'));
  const w = list<{ type: string }>(j.json, 'data').find((t: { type: string }) => t.type === 'weather');
  assert.equal(at(w, 'covered_count'), 84);
  const html = await ctx.app.get('/coverage');
  assert.match(html.headers.get('content-type') ?? '', /text\/html/);
  for (const dt of perCity) assert.ok(html.text.includes(`>${dt.type}</th>`), dt.type);
});
