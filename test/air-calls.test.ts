import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { register as registerUba } from './fixtures/uba/routes.ts';
import { buildCatalog } from '../src/catalog/build.ts';
import { ENVIRONMENT_TYPES } from '../src/catalog/environment.ts';
import { at } from './helpers/json.ts';

/**
 * Upstream politeness of the air types (issue 18, item 5): at most one UBA call per station and
 * hour on a cold cache, counted at the fake upstream.
 */
const BASE = '/api/air-data/v3';
const ctx = useFakeApp(registerUba);
const { fake } = ctx;

const calls = (endpoint: string) => fake.requests.filter((r) => r.url.startsWith(`${BASE}/${endpoint}`)).map((r) => new URL(r.url, 'http://x').searchParams);
/** Upstream calls that name a station, per station. */
function perStation(): Map<string, number> {
  const n = new Map<string, number>();
  for (const r of fake.requests) {
    const s = new URL(r.url, 'http://x').searchParams.get('station');
    if (s !== null) n.set(s, (n.get(s) ?? 0) + 1);
  }
  return n;
}

test('cold air for one city: the station list and one call per pollutant for all stations, none per station', async () => {
  const r = await ctx.app.get('/api/v1/live/braunschweig/air');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.readings.o3.station.id'), '513');
  assert.equal(fake.count(`${BASE}/stations/json`), 1);
  const measures = calls('measures/json');
  assert.equal(measures.length, 5);
  assert.deepEqual(measures.map((q) => q.get('component')).sort(), ['1', '3', '4', '5', '9']);
  assert.ok(measures.every((q) => q.get('scope') === '2' && !q.has('station') && q.get('date_to') && q.get('time_to')));
  assert.equal(fake.count(`${BASE}/airquality/json`), 0);
  assert.equal(perStation().size, 0);
  // before: one measures call per station and pollutant until one reported it (8 here, up to 30)
  assert.equal(fake.count(), 6);
});

test('air within the hour: the same city and a neighbour sharing its stations make no upstream call', async () => {
  const again = await ctx.app.get('/api/v1/live/braunschweig/air');
  assert.equal(at(again.json, 'meta.source_status'), 'ok');
  const neighbour = await ctx.app.get('/api/v1/live/salzgitter/air');
  assert.equal(at(neighbour.json, 'meta.source_status'), 'ok');
  assert.equal(fake.count(), 0);
});

test('air-uba: one airquality call per station of the city, nothing else', async () => {
  const r = await ctx.app.get('/api/v1/live/braunschweig/air-uba');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(
    calls('airquality/json')
      .map((q) => q.get('station'))
      .sort(),
    ['513', '901'],
  );
  assert.equal(fake.count(), 2);
});

/** air and air-uba recomputed on every request: what their 15-minute refreshes do within one hour. */
async function eagerApp(): Promise<TestApp> {
  const types = ENVIRONMENT_TYPES.filter((t) => t.type === 'air' || t.type === 'air-uba').map((t) => ({ ...t, cache: { freshSeconds: 0, staleSeconds: 0 } }));
  return startApp(fakeEnv(fake.url), { catalog: buildCatalog(types) });
}

test('air-uba and air refreshed again and again within the hour: at most one call per station, shared answers reused', async () => {
  const eager = await eagerApp();
  try {
    for (let round = 0; round < 3; round++) {
      for (const path of ['/api/v1/live/braunschweig/air-uba', '/api/v1/live/braunschweig/air', '/api/v1/live/salzgitter/air']) {
        const r = await eager.get(path);
        assert.equal(at(r.json, 'meta.source_status'), 'ok', path);
        // the adapter ran: nothing came from the data type's own cache
        assert.match(r.headers.get('cache-status') ?? '', /fwd=miss/, path);
      }
    }
  } finally {
    await eager.close();
  }
  assert.ok([...perStation().values()].every((n) => n === 1));
  assert.equal(perStation().size, 2);
  assert.equal(fake.count(`${BASE}/measures/json`), 5);
  assert.equal(fake.count(`${BASE}/stations/json`), 1);
});
