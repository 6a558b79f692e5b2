import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { register as registerBnetza } from './fixtures/bnetza/routes.ts';
import { CHARGECLOUD_LOCATIONS, register as registerMobidata } from './fixtures/mobidata/routes.ts';
import { decodeRegister, parseRegister } from '../src/sources/bnetza/register-csv.ts';
import { CityMatcher } from '../src/sources/bnetza/city-match.ts';
import { assertPage, chargingStatus, occupancyOf } from '../src/sources/mobidata/ocpdb-locations.ts';
import { newestRegisterFile, precomputeCharging } from '../src/jobs/charging-precompute.ts';
import { CITIES } from '../src/cities/register.ts';
import { nth } from './helpers/must.ts';
import { at, list, str } from './helpers/json.ts';

const ctx = useFakeApp((f) => {
  registerBnetza(f);
  registerMobidata(f);
});
const { fake } = ctx;

const CSV = 'bnetza/Ladesaeulenregister_BNetzA_2026-09-01.csv';

test('parser: register CSV (UTF-8 BOM, banner lines, quoted ;-lists, decimal commas, dates)', () => {
  const { edition, stations } = parseRegister(decodeRegister(fixture(CSV)));
  assert.equal(edition, '2026-09-01');
  assert.equal(stations.length, 7);
  const albwerk = stations.find((s) => s.id === '1010338')!;
  assert.deepEqual([albwerk.lat, albwerk.lon, albwerk.post_code, albwerk.commissioning_date], [48.442398, 9.659075, '72535', '2020-01-11']);
  assert.equal(albwerk.operator, 'Albwerk Elektro- und Kommunikationstechnik GmbH');
  const fast = stations.find((s) => s.id === '2041877')!;
  assert.equal(fast.charging_type, 'fast');
  assert.equal(fast.power_kw, 300);
  assert.deepEqual(fast.connector_types, ['DC Fahrzeugkupplung Typ Combo 2 (CCS)', 'DC CHAdeMO']);
  assert.deepEqual(nth(fast.connectors, 1).power_kw, [150, 50]);
  const sws = stations.find((s) => s.id === '2009915')!;
  assert.equal(sws.power_kw, 7.2);
  assert.deepEqual(nth(sws.connectors, 0).power_kw, [3.7, 3.7]);
  assert.equal(sws.street, 'Marktplatz');
});

test('parser: a cp1252/Latin-1 edition without BOM decodes to the same stations', () => {
  const text = decodeRegister(fixture(CSV));
  const latin1 = Buffer.from(text, 'latin1');
  const again = parseRegister(decodeRegister(latin1));
  assert.equal(again.stations.find((s) => s.id === '3015522')?.street, 'Alexanderstraße');
  assert.equal(again.stations.length, 7);
});

test('city match: state + Ort core name + radius (Frankfurt (Oder) is not Frankfurt am Main)', () => {
  const m = new CityMatcher(CITIES);
  const { stations } = parseRegister(decodeRegister(fixture(CSV)));
  const cityOf = (id: string) => m.cityOf(stations.find((s) => s.id === id)!)?.slug ?? null;
  assert.equal(cityOf('2077410'), 'stuttgart');
  assert.equal(cityOf('3200117'), 'frankfurt-am-main');
  assert.equal(cityOf('3188204'), null);
  assert.equal(cityOf('1010338'), null);
});

test('landing page: the newest dated CSV link is chosen', () => {
  assert.equal(newestRegisterFile(fixture('bnetza/ladesaeulenkarte-start.html').toString()), 'Ladesaeulenregister_BNetzA_2026-09-01.csv');
  assert.equal(newestRegisterFile('<p>nothing</p>'), null);
});

test('charging: no_data before the precompute, ok from the store after the job ran', async () => {
  const before = await ctx.app.get('/api/v1/cities/stuttgart/charging');
  assert.equal(before.status, 200);
  assert.equal(at(before.json, 'meta.source_status'), 'no_data');

  const res = await precomputeCharging(ctx.app.rt);
  assert.deepEqual(res, { edition: '2026-09-01', stations: 7, matched: 5 });

  const r = await ctx.app.get('/api/v1/cities/stuttgart/charging');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.edition_date'), '2026-09-01');
  assert.deepEqual(at(r.json, 'data.aggregates'), { stations: 3, charging_points: 5, total_power_kw: 318.2, fast_stations: 1, normal_stations: 2 });
  const p = list<{ id: string }>(r.json, 'data.points').find((x: { id: string }) => x.id === '2041877');
  assert.equal(at(p, 'post_code'), '70191');
  assert.equal(at(p, 'plz'), '70191');
  assert.equal(at(p, 'power_kw'), 300);
  assert.equal(at(p, 'house_number'), '86');
  assert.equal(at(r.json, 'attribution.license'), 'CC BY 4.0');

  const paged = await ctx.app.get('/api/v1/cities/stuttgart/charging?limit=1');
  assert.equal(at(paged.json, 'data.points.length'), 1);
  assert.equal(at(paged.json, 'meta.pagination.total'), 3);

  assert.equal(at((await ctx.app.get('/api/v1/cities/koeln/charging')).json, 'meta.source_status'), 'no_data');
  assert.equal((await ctx.app.get('/api/v1/cities/stuttgart/charging?limit=abc')).status, 422);
  assert.equal((await ctx.app.get('/api/v1/cities/atlantis/charging')).status, 404);
});

test('charging: toggle off is disabled', async () => {
  await expectDisabled({ fake, env: { BNETZA_ENABLED: 'false' }, path: '/api/v1/cities/stuttgart/charging' });
});

test('parser: OCPI EVSE statuses to occupancy buckets; neighbouring town filtered out', () => {
  assert.equal(occupancyOf('BLOCKED'), 'occupied');
  assert.equal(occupancyOf('INOPERATIVE'), 'out_of_order');
  assert.equal(occupancyOf('REMOVED'), null);
  const body = JSON.parse(fixture('mobidata/locations_stuttgart-bbox.json').toString());
  const d = chargingStatus(body.items, (_lat, _lon, place) => place === 'Stuttgart');
  assert.deepEqual(d.aggregates, { total: 4, available: 1, occupied: 1, out_of_order: 1, unknown: 1, last_update: '2026-09-14T10:01:44+02:00' });
  assert.equal(nth(d.points, 0).power_kw, 150);
});

test('parser boundary: retyped connectors, status or items are format drift naming the JSON path; missing optional members are null', () => {
  const page = () => JSON.parse(fixture(CHARGECLOUD_LOCATIONS).toString()) as { items: Record<string, unknown>[] & { evses: Record<string, unknown>[] }[] };
  const retypedConnectors = page();
  (retypedConnectors.items[1]!.evses as Record<string, unknown>[])[0]!.connectors = 'x';
  assert.throws(() => assertPage(retypedConnectors), {
    name: 'FormatDriftError',
    message: /^OCPDB locations \$\.items\[1\]\.evses\[0\]\.connectors: expected array/,
  });
  const retypedStatus = page();
  (retypedStatus.items[0]!.evses as Record<string, unknown>[])[0]!.status = 42;
  assert.throws(() => assertPage(retypedStatus), { message: /^OCPDB locations \$\.items\[0\]\.evses\[0\]\.status: expected string/ });
  assert.throws(() => assertPage({ next: null }), { message: /^OCPDB locations \$\.items: expected array/ });
  const bare = page();
  const evse = (bare.items[0]!.evses as Record<string, unknown>[])[0]!;
  delete evse.connectors;
  evse.status = null;
  const d = chargingStatus(assertPage(bare).items, () => true);
  const point = d.points.find((p) => p.evse_id === evse.evse_id)!;
  assert.equal(point.power_kw, null);
  assert.deepEqual(point.connector_standards, []);
  assert.equal(point.status, 'unknown');
});

test('parser on the recorded OCPI 2.2.1 locations page (chargecloud, SWLB Ludwigsburg): string coordinates, W, upper-case statuses, cursor paging', () => {
  const page = assertPage(JSON.parse(fixture(CHARGECLOUD_LOCATIONS).toString()));
  assert.equal(page.total_count, null, '{next, items}: no total_count');
  assert.equal(page.items.length, 4);
  const d = chargingStatus(page.items, (_lat, _lon, place) => place === 'Ludwigsburg');
  assert.deepEqual(d.aggregates, { total: 11, available: 5, occupied: 2, out_of_order: 4, unknown: 0, last_update: d.aggregates.last_update });
  const first = nth(d.points, 0);
  assert.deepEqual(first, {
    evse_id: 'DE*SLB*E001L10000*001',
    location_id: '1588625',
    name: 'LB Brenzstraße 2',
    operator: 'SWLB Mobilität GmbH',
    street: 'Brenzstraße 2',
    post_code: '71636',
    place: 'Ludwigsburg',
    lat: 48.89233,
    lon: 9.18329,
    status: 'occupied',
    upstream_status: 'CHARGING',
    power_kw: 22,
    connector_standards: ['IEC_62196_T2'],
    last_updated_at: '2024-10-10T00:07:29+02:00',
  });
  assert.deepEqual(
    d.points.filter((p) => p.location_id === '1637441').map((p) => [p.status, p.power_kw]),
    [
      ['out_of_order', 150],
      ['out_of_order', 150],
    ],
  );
  assert.ok(d.points.some((p) => p.upstream_status === 'OUTOFORDER' && p.status === 'out_of_order'));
});

test("charging-status honest about place: the recorded Ludwigsburg page served as Stuttgart's answer shows none of it", async () => {
  fake.get('/ocpdb/api/public/v1/locations', { file: CHARGECLOUD_LOCATIONS });
  const r = await ctx.freshGet('/api/v1/cities/stuttgart/charging-status');
  assert.equal(r.status, 200, 'a page without total_count is read, not a parse failure');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.doesNotMatch(r.text, /Ludwigsburg|Brenzstra/);
});

test('GET charging-status: live ok in Stuttgart, bbox query, live markers', async () => {
  const r = await ctx.app.get('/api/v1/cities/stuttgart/charging-status');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.refresh_seconds'), 60);
  assert.equal(at(r.json, 'meta.as_of'), '2026-09-14T10:01:44+02:00');
  assert.equal(at(r.json, 'data.aggregates.total'), 4);
  assert.ok(!list<{ place: string | null }>(r.json, 'data.points').some((p: { place: string | null }) => p.place === 'Esslingen am Neckar'));
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.ok(Number(q.get('lat_min')) < 48.7758 && Number(q.get('lat_max')) > 48.7758);
});

test('charging-status: outside Baden-Württemberg is not_covered with the covered list', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/charging-status');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.ok(list(r.json, 'meta.covered_cities').includes('stuttgart'));
  assert.equal(fake.count('/ocpdb'), 0);
});

test('compare charging-status: aggregates with points_omitted, no point list', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=charging-status&cities=stuttgart,berlin');
  assert.equal(r.status, 200);
  const byCity = Object.fromEntries(list<{ city: string }>(r.json, 'data').map((i: { city: string }) => [i.city, i]));
  assert.equal(at(byCity, 'stuttgart.source_status'), 'ok');
  assert.equal(at(byCity, 'stuttgart.data.points_omitted'), 4);
  assert.equal(at(byCity, 'stuttgart.data.available'), 1);
  assert.equal(at(byCity, 'stuttgart.data.points'), undefined);
  // Compare's status vocabulary has no not_covered (SPEC): an uncovered city is reported without data.
  assert.ok(['not_covered', 'no_data'].includes(str(byCity, 'berlin.source_status')));
  assert.equal(at(byCity, 'berlin.data'), null);
});

test('charging-status: no points is no_data, dead upstream 503, toggle off disabled', async () => {
  fake.get('/ocpdb/api/public/v1/locations', { json: { items: [], total_count: 0 } });
  assert.equal(at((await ctx.app.get('/api/v1/cities/karlsruhe/charging-status')).json, 'meta.source_status'), 'no_data');
  await expectUnavailable({ fake, path: '/api/v1/cities/mannheim/charging-status' });
  await expectDisabled({ fake, env: { MOBIDATA_OCPDB_ENABLED: 'false' }, path: '/api/v1/cities/ulm/charging-status', upstreamPrefix: '/ocpdb' });
});
