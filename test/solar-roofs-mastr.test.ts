import { test } from 'node:test';
import assert from 'node:assert/strict';
import { at, str } from './helpers/json.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { MASTR_PATH, MASTR_SOLAR, register as registerMastr } from './fixtures/mastr/routes.ts';
import { SolarRoofsRecord } from '../src/core/records/solar.ts';

/** solar-roofs outside NRW: the PV units in operation the Marktstammdatenregister lists for the city, by location class. */
const ctx = useFakeApp(registerMastr);
const { fake } = ctx;
const FREIBURG = '/api/v1/cities/freiburg-im-breisgau/solar-roofs';

test('solar-roofs (MaStR): PV units in operation by location, one register call filtered on the solar carrier', async () => {
  const r = await ctx.freshGet(FREIBURG);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.source'), 'mastr');
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/by-2-0');
  assert.equal(at(r.json, 'data.ags'), '08311000');
  assert.equal(at(r.json, 'data.municipality'), 'Freiburg im Breisgau');
  assert.equal(at(r.json, 'data.data_basis'), 'MaStR (Bundesnetzagentur), PV units in operation');
  assert.match(str(r.json, 'data.stand'), /^\d{4}-\d{2}-\d{2}$/);
  // Four building units in operation (10.2 + 0.8 + 30 + 100 kW); the planned one (status 31) is left out.
  assert.deepEqual(at(r.json, 'data.buildings'), { installations: 4, capacity_mw: 0.141, yield_gwh: null });
  assert.deepEqual(at(r.json, 'data.plug_in'), { installations: 1, capacity_mw: 0.0008, yield_gwh: null });
  assert.deepEqual(at(r.json, 'data.ground_mounted'), { installations: 1, capacity_mw: 0.75, yield_gwh: null });
  assert.deepEqual(at(r.json, 'data.total'), { installations: 6, capacity_mw: 0.8918, yield_gwh: null });
  assert.equal(at(r.json, 'data.rooftop'), null, 'the register does not tell roofs from facades');
  assert.equal(at(r.json, 'meta.units_total'), 7);
  assert.ok(SolarRoofsRecord().safeParse(at(r.json, 'data')).success, 'the answer fits the declared record');
  const asked = fake.requests.filter((q) => q.url.startsWith(MASTR_PATH)).map((q) => new URL(q.url, 'http://x').searchParams);
  assert.deepEqual(
    asked.map((q) => [q.get('filter'), q.get('page'), q.get('pageSize')]),
    [["Gemeindeschlüssel~eq~'08311000'~and~Energieträger~eq~'2495'", '1', '5000']],
  );
});

test('solar-roofs (MaStR): no PV unit in operation is no_data; units of another municipality are never counted', async () => {
  const none = await ctx.freshGet('/api/v1/cities/augsburg/solar-roofs');
  assert.equal(none.status, 200);
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');
  assert.match(str(none.json, 'meta.reason'), /no PV unit in operation/);
  // A register that ignored the filter would answer other municipalities' units.
  const other = JSON.parse(fixture(MASTR_SOLAR).toString()) as { Data: { Gemeindeschluessel: string }[] };
  for (const u of other.Data) u.Gemeindeschluessel = '09761000';
  fake.get(MASTR_PATH, { json: other });
  const r = await ctx.freshGet(FREIBURG);
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
});

test('solar-roofs (MaStR): a malformed answer or a dead register is a 503 problem, never a 500', async () => {
  fake.get(MASTR_PATH, { body: '<html><body>Fehler</body></html>', headers: { 'content-type': 'text/html' } });
  const html = await ctx.freshGet(FREIBURG);
  assert.equal(html.status, 503);
  assert.match(str(html.json, 'hint'), /\/api\/v1\/health/);
  fake.get(MASTR_PATH, { json: { Data: null, Total: 0, Errors: ['Filter ungültig'] } });
  assert.equal((await ctx.freshGet(FREIBURG)).status, 503);
  registerMastr(fake);
  await expectUnavailable({ fake, path: FREIBURG });
});

test('solar-roofs (MaStR): MASTR_ENABLED=false is disabled for the cities it answers', async () => {
  await expectDisabled({ fake, env: { MASTR_ENABLED: 'false' }, path: FREIBURG, upstreamPrefix: MASTR_PATH });
});
