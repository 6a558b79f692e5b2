import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, num, str } from './helpers/json.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { type TestResponse } from './helpers/app.ts';
import { MOBILITY_POINTS_FILE, MUENCHEN_WFS, register as registerMuenchenGeoportal } from './fixtures/muenchen-geoportal/routes.ts';
import { parseMobilityPoints } from '../src/sources/muenchen-geoportal/mobility-points.ts';
import type { MobilityPointRecord } from '../src/core/records/mobility.ts';

const ctx = useFakeApp(registerMuenchenGeoportal);
const { fake } = ctx;
const PATH = '/api/v1/cities/muenchen/mobility-points';

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path);

test('parser: the recorded layer: line breaks and repeated lines cleaned, taxi "Nein" or a number, Ja/Nein flags, UTM 32 converted', () => {
  const points = parseMobilityPoints(JSON.parse(fixture(MOBILITY_POINTS_FILE).toString('utf8')));
  assert.equal(points.length, 15);
  const byName = new Map(points.map((p) => [p.name, p]));
  const kidler = byName.get('Kidlerplatz')!;
  assert.equal(kidler.id, '14');
  assert.equal(kidler.address, 'Kidlerplatz 8, 58');
  assert.equal(kidler.edited_on, '2026-02-24');
  assert.ok(byName.has('St. Jakobs-Platz'), 'trailing line break removed from the name');
  const rinder = byName.get('Rindermarkt')!;
  assert.equal(rinder.carsharing_spaces, 0);
  assert.equal(rinder.taxi_spaces, 9);
  assert.deepEqual(rinder.modes, ['taxi', 'bike_sharing', 'e_scooter_sharing', 'cargo_bike_sharing', 'moped_sharing', 'subway', 'suburban_rail']);
  const impler = byName.get('Implerstraße') as MobilityPointRecord;
  assert.equal(impler.taxi_spaces, 0);
  assert.deepEqual(impler.modes, ['carsharing', 'bike_sharing', 'e_scooter_sharing', 'cargo_bike_sharing', 'moped_sharing', 'bus', 'subway']);
  // Implerstraße lies in Sendling, south-west of the centre.
  assert.ok(impler.lat! > 48.11 && impler.lat! < 48.125 && impler.lon! > 11.54 && impler.lon! < 11.555, `${impler.lat},${impler.lon}`);
  const weinmair = byName.get('Karl-Weinmair-Straße')!;
  assert.equal(weinmair.bike_pump, true);
  assert.deepEqual(weinmair.modes, ['carsharing', 'tram']);
});

test('GET mobility-points: München, every point by name with modes and the car-sharing sum', async () => {
  const r = await ctx.app.get(PATH);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const items = list<{ name: string; id: string }>(r.json, 'data');
  assert.equal(items.length, 15);
  assert.equal(items[0]!.name, 'Aubing');
  assert.equal(num(r.json, 'meta.carsharing_spaces'), 76);
  assert.equal(at(r.json, 'meta.last_edited_on'), '2026-03-17');
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/by-2-0');
  assert.match(str(r.json, 'attribution.text'), /Landeshauptstadt München/);
  const asked = fake.requests.find((q) => q.url.startsWith(MUENCHEN_WFS))!;
  assert.equal(new URL(asked.url, 'http://x').searchParams.get('typeName'), 'mor_wfs:ruhver_mp_standort_point');
});

test('mobility-points: an empty layer is no_data; other cities are not_covered', async () => {
  fake.get(MUENCHEN_WFS, { json: { type: 'FeatureCollection', features: [], totalFeatures: 0 } });
  const r = await freshGet(PATH);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  const n = await ctx.app.get('/api/v1/cities/berlin/mobility-points');
  assert.equal(at(n.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(n.json, 'meta.covered_cities'), ['muenchen']);
});

test('mobility-points: an exception report, a garbage body or a dead upstream is a 503 problem, never a 500', async () => {
  fake.get(MUENCHEN_WFS, { body: '<html>Wartung</html>', headers: { 'content-type': 'text/html' } });
  const r = await freshGet(PATH);
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  assert.ok(!r.text.includes('Wartung'));
  fake.get(MUENCHEN_WFS, { json: { type: 'FeatureCollection' } });
  assert.equal((await freshGet(PATH)).status, 503);
  await expectUnavailable({ fake, path: PATH });
});

test('mobility-points: MUENCHEN_GEOPORTAL_ENABLED=false is disabled and asks no upstream', async () => {
  await expectDisabled({ fake, env: { MUENCHEN_GEOPORTAL_ENABLED: 'false' }, path: PATH, upstreamPrefix: MUENCHEN_WFS });
});
