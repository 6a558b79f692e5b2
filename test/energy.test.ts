import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { MASTR_PATH, register as registerMastr } from './fixtures/mastr/routes.ts';
import { parsePage, summarise } from '../src/sources/mastr/units.ts';
import { nth } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

const json = (f: string) => JSON.parse(fixture(f).toString());
const P1 = 'mastr/GetErweiterteOeffentlicheEinheitStromerzeugung_08311000_page1.json';
const P2 = 'mastr/GetErweiterteOeffentlicheEinheitStromerzeugung_08311000_page2.json';

const ctx = useFakeApp(registerMastr);
const { fake } = ctx;

async function getFresh(path: string) {
  const app = await startApp(fakeEnv(fake.url));
  try {
    return await app.get(path);
  } finally {
    await app.close();
  }
}

test('parser: pages and the per-carrier sum of units in operation', () => {
  const p1 = parsePage(json(P1));
  assert.equal(p1.total, 7);
  assert.equal(p1.units.length, 4);
  const d = summarise('08311000', [...p1.units, ...parsePage(json(P2)).units]);
  assert.equal(d.units_registered, 7);
  assert.equal(d.units_in_operation, 6);
  assert.equal(d.net_capacity_kw, 3689.5);
  assert.deepEqual(
    d.by_carrier.map((c) => [c.carrier_id, c.units, c.net_capacity_kw]),
    [
      [2497, 1, 3000],
      [2493, 1, 550],
      [2495, 4, 139.5],
    ],
  );
  assert.throws(() => parsePage({ Errors: ['x'] } as never), /Errors/);
  assert.throws(() => parsePage({} as never), /MaStR page \$\.Data: expected array, received undefined/);
});

test('GET energy: pages through the register by AGS and sums by carrier', async () => {
  const r = await ctx.app.get('/api/v1/cities/freiburg-im-breisgau/energy');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.municipality_key'), '08311000');
  assert.equal(at(r.json, 'data.units_in_operation'), 6);
  assert.equal(at(r.json, 'data.by_carrier.0.carrier'), 'Wind');
  assert.equal(at(r.json, 'meta.units_total'), 7);
  const asked = fake.requests.filter((q) => q.url.startsWith(MASTR_PATH)).map((q) => new URL(q.url, 'http://x').searchParams);
  assert.deepEqual(
    asked.map((q) => q.get('page')),
    ['1', '2'],
  );
  assert.equal(nth(asked, 0).get('filter'), "Gemeindeschlüssel~eq~'08311000'");
  assert.equal(nth(asked, 0).get('pageSize'), '5000');
  assert.match(str(r.json, 'attribution.text'), /Marktstammdatenregister/);
});

test('energy: a municipality without units is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/energy');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
});

test('energy: malformed page (HTML, error body) is a 503 problem', async () => {
  fake.get(MASTR_PATH, { body: '<html><body>Fehler</body></html>', headers: { 'content-type': 'text/html' } });
  assert.equal((await getFresh('/api/v1/cities/freiburg-im-breisgau/energy')).status, 503);
  fake.get(MASTR_PATH, { json: { Data: null, Total: 0, Errors: ['Filter ungültig'] } });
  const r = await getFresh('/api/v1/cities/freiburg-im-breisgau/energy');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
});

test('energy: units of another municipality (a filter the register ignored) are never counted: 503', async () => {
  fake.get(MASTR_PATH, { file: P1 });
  const r = await getFresh('/api/v1/cities/kiel/energy');
  assert.equal(r.status, 503);
});

test('energy: 404 unknown city, 503 dead upstream, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/energy');
  await expectUnavailable({ fake, path: '/api/v1/cities/freiburg-im-breisgau/energy' });
  await expectDisabled({ fake, env: { MASTR_ENABLED: 'false' }, path: '/api/v1/cities/freiburg-im-breisgau/energy' });
});
