import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { LOCATIONS_PATH, RECORDED_LOCATIONS, register as registerKlinikatlas } from './fixtures/klinikatlas/routes.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { hospitalsOf, parseLocations } from '../src/sources/klinikatlas/locations.ts';
import { nth, must } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

const ON = { KLINIKATLAS_ENABLED: 'true' };
const ctx = useFakeApp(registerKlinikatlas, { env: ON, keyless: true });
const { fake } = ctx;
const all = () => parseLocations(JSON.parse(fixture('klinikatlas/locations.json').toString()));

test('parser: schema types (integer zip padded, string coordinates), garbage rejected', () => {
  const h = all();
  assert.equal(h.length, 4);
  assert.equal(nth(h, 3).post_code, '01067');
  assert.equal(nth(h, 0).lat, 52.529);
  assert.equal(nth(h, 0).beds, 612);
  assert.throws(() => parseLocations({ error: 'x' }), /not a JSON array/);
});

test('parser on the recorded sites: string zip with its leading zero, twelve-decimal string coordinates, names as given', () => {
  const h = parseLocations(JSON.parse(fixture(RECORDED_LOCATIONS).toString()));
  assert.equal(h.length, 5);
  assert.deepEqual(nth(h, 0), {
    name: 'Klinikum Südstadt Rostock',
    street: 'Südring 81',
    post_code: '18059',
    place: 'Rostock',
    phone: '+49 (0)381/4401-0',
    email: 'info@kliniksued-rostock.de',
    beds: 533,
    lat: 54.071629513465,
    lon: 12.107577323914,
    url: 'https://bundes-klinik-atlas.de/krankenhaussuche/krankenhaus/771003/',
  });
  assert.equal(nth(h, 1).post_code, '06484');
  assert.equal(nth(h, 1).name, 'Harzklinikum Dorothea Christiane Erxleben GmbH  Standort Quedlinburg');
  assert.equal(nth(h, 4).place, 'Borna bei Leipzig');
});

test('city filter: within the radius and naming the city, nearest first; a neighbour town is left out', () => {
  const berlin = hospitalsOf(all(), CITY_BY_SLUG.get('berlin')!);
  assert.deepEqual(
    berlin.map((h) => h.place),
    ['Berlin', 'Berlin-Buch'],
  );
  assert.ok(must(nth(berlin, 0).distance_km) < must(nth(berlin, 1).distance_km));
  assert.deepEqual(
    hospitalsOf(all(), CITY_BY_SLUG.get('potsdam')!).map((h) => h.name),
    ['Klinikum Beispiel Potsdam'],
  );
});

test('hospitals-atlas: off by default, disabled with the licence reason and no upstream call', async () => {
  const r = await ctx.keyless.get('/api/v1/cities/berlin/hospitals-atlas');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'disabled');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.disabled_reason'), /publishes no licence/);
  assert.equal(fake.count(LOCATIONS_PATH), 0);
});

test('hospitals-atlas enabled: ok for Berlin, no_data where the atlas has no site', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/hospitals-atlas');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.length'), 2);
  assert.equal(at(r.json, 'data.0.post_code'), '10115');
  assert.equal(at(r.json, 'attribution.tier'), 'C');
  const kiel = await ctx.app.get('/api/v1/cities/kiel/hospitals-atlas');
  assert.equal(at(kiel.json, 'meta.source_status'), 'no_data');
  assert.equal(fake.count(LOCATIONS_PATH), 1, 'the national list is fetched once and shared');
});

test('hospitals-atlas enabled, recorded sites: Rostock gets its clinic; Borna bei Leipzig lies outside Leipzig', async () => {
  const r = await ctx.app.get('/api/v1/cities/rostock/hospitals-atlas');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.length'), 1);
  assert.equal(at(r.json, 'data.0.name'), 'Klinikum Südstadt Rostock');
  assert.equal(at(r.json, 'data.0.post_code'), '18059');
  assert.equal(at(r.json, 'data.0.beds'), 533);
  assert.equal(at(r.json, 'data.0.url'), 'https://bundes-klinik-atlas.de/krankenhaussuche/krankenhaus/771003/');
  const leipzig = await ctx.app.get('/api/v1/cities/leipzig/hospitals-atlas');
  assert.equal(at(leipzig.json, 'meta.source_status'), 'no_data');
});

test('hospitals-atlas: malformed list is a 503 problem; unknown city 404; dead upstream 503', async () => {
  fake.get(LOCATIONS_PATH, { json: { message: 'maintenance' } });
  const app = await startApp({ ...fakeEnv(fake.url), ...ON });
  try {
    const r = await app.get('/api/v1/cities/berlin/hospitals-atlas');
    assert.equal(r.status, 503);
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  } finally {
    await app.close();
  }
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/hospitals-atlas');
  await expectUnavailable({ fake, env: ON, path: '/api/v1/cities/dresden/hospitals-atlas' });
});
