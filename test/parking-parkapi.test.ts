import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParkingSiteRecord } from '../src/core/records/mobility.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fixture, type FakeUpstream } from './helpers/fake-upstream.ts';
import { at, list, str } from './helpers/json.ts';
import { expectDisabled } from './helpers/status-rules.ts';
import type { TestResponse } from './helpers/app.ts';
import { DORTMUND, geojson, register as registerCityParking } from './fixtures/city-parking/routes.ts';
import { PARKAPI_FILES, PARKAPI_PATH, PARKAPI_RECORDED_RADSAFE, register as registerParkapiV3 } from './fixtures/parkapi-v3/routes.ts';
import { parseParkapiSites } from '../src/sources/parkapi-v3/sites.ts';
import { parseDortmundParkhaeuser } from '../src/sources/city-parking/dortmund.ts';
import { sameSite } from '../src/sources/city-parking/merge.ts';

const ctx = useFakeApp((fake: FakeUpstream) => {
  registerCityParking(fake);
  registerParkapiV3(fake);
});
const { fake } = ctx;

const freshGet = (path: string, env: Record<string, string> = {}): Promise<TestResponse> => ctx.freshGet(path, env);

/** An answer's item, as the record declares it. */
type Site = ParkingSiteRecord;

/** ParkAPI answers `uid` from the recorded-day fixture (not moved to today). */
function parkapiUnreplayed(uid: string) {
  fake.get(PARKAPI_PATH, (_req, url) => {
    const file = PARKAPI_FILES[url.searchParams.get('source_uid') ?? ''];
    return file ? geojson(file, url.searchParams.get('source_uid') !== uid) : { json: { items: [] } };
  });
}

test('parser: ParkAPI v3 list: counts outside 0..capacity and static sites carry no count, address split', () => {
  const st = parseParkapiSites(JSON.parse(fixture(PARKAPI_FILES.stuttgart!).toString()), { uid: 'stuttgart', license: 'L' });
  assert.equal(st.length, 3);
  const [hbf, schloss, wasen] = st;
  assert.equal(hbf?.id, 'parkapi-stuttgart:P01');
  assert.equal(hbf?.free_spaces, 123);
  assert.equal(hbf?.occupancy_share, 0.754);
  assert.equal(hbf?.updated_at, '2024-11-27T19:35:00+01:00');
  assert.equal(hbf?.street, 'Arnulf-Klett-Platz');
  assert.equal(hbf?.post_code, '70173');
  assert.equal(hbf?.lat, 48.7849);
  assert.equal(schloss?.free_spaces, null, '650 free of 400 is no count');
  assert.equal(wasen?.live, false);
  assert.equal(wasen?.capacity, 1000);
  assert.throws(() => parseParkapiSites({ results: [] }, { uid: 'x', license: 'L' }), /ParkAPI v3 parking-sites \$\.items: /);
});

test('the recorded ParkAPI v3 list (MobiData BW, source 34, 2025-08-19): {items, total_count}, decimal-string lat/lon, absent optional members', async () => {
  const res = await fetch(`${fake.url}${PARKAPI_PATH}?source_id=34`);
  const body = (await res.json()) as { items: Record<string, unknown>[]; total_count: number };
  assert.equal(body.total_count, 5);
  const feed = { uid: 'radsafe', license: 'L' };
  // Bike lockers (purpose BIKE): never car parking, even when a source sends them to a purpose=CAR request.
  assert.deepEqual(parseParkapiSites(body, feed), []);
  // The same recorded items read as car sites: every member the parser takes, as recorded.
  const asCar = parseParkapiSites({ ...body, items: body.items.map((i) => ({ ...i, purpose: 'CAR' })) }, feed);
  assert.equal(asCar.length, 5);
  assert.deepEqual(asCar[0], {
    id: 'parkapi-radsafe:unit555',
    name: 'Sinsheim, Bahnhof, Anlage rechts',
    street: null,
    house_number: null,
    post_code: null,
    place: null,
    lat: 49.250629,
    lon: 8.874554,
    capacity: 24,
    free_spaces: 22,
    occupancy_share: asCar[0]?.occupancy_share,
    state: null,
    live: true,
    updated_at: '2025-08-19T09:17:00+02:00',
    source: 'parkapi-radsafe',
    license: 'L',
    park_and_ride: false,
  });
  assert.equal(asCar[0]?.occupancy_share, Math.round((2 / 24) * 1000) / 1000);
  assert.deepEqual(
    asCar.map((s) => s.free_spaces),
    [22, 20, 19, 22, 21],
  );
  assert.ok(fixture(PARKAPI_RECORDED_RADSAFE).length > 0);
});

test('parser: Dortmund Opendatasoft records: state, counts above the capacity dropped', () => {
  const sites = parseDortmundParkhaeuser(JSON.parse(fixture(DORTMUND).toString()));
  assert.equal(sites.length, 4);
  assert.equal(sites[0]?.free_spaces, 102);
  assert.equal(sites[0]?.updated_at, '2024-05-03T12:15:00+02:00');
  assert.equal(sites[2]?.state, 'closed');
  assert.equal(sites[3]?.free_spaces, null);
  assert.throws(() => parseDortmundParkhaeuser({ items: [] }), /Dortmund Opendatasoft parkhauser \$\.results: /);
});

test('merge rule: the same place, or near with a shared name word, is one car park', () => {
  const base = { lat: 49.0, lon: 8.4, name: 'Kongresszentrum PH2' } as const;
  const s = (o: Partial<Site> & { lat: number | null; lon: number | null; name: string | null }) => o as never;
  assert.ok(sameSite(s(base), s({ lat: 49.0001, lon: 8.4001, name: 'anything' })));
  assert.ok(sameSite(s(base), s({ lat: 49.001, lon: 8.4, name: 'Parkhaus Kongresszentrum' })));
  assert.ok(!sameSite(s(base), s({ lat: 49.001, lon: 8.4, name: 'Tiefgarage Schlossplatz' })));
  assert.ok(!sameSite(s(base), s({ lat: 49.01, lon: 8.4, name: 'Kongresszentrum PH2' })), '1.1 km apart');
});

test('GET parking: Karlsruhe merges its own feed with ParkAPI v3; a car park both list appears once', async () => {
  const r = await ctx.app.get('/api/v1/cities/karlsruhe/parking');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const sites = list<Site>(r.json, 'data');
  assert.equal(sites.length, 9);
  assert.deepEqual(at(r.json, 'meta.merged_sources'), ['karlsruhe-parkhaeuser', 'parkapi-karlsruhe']);
  assert.deepEqual(at(r.json, 'meta.duplicates_left_out'), { 'parkapi-karlsruhe': 2 });
  assert.equal(sites.filter((s) => /Luisenstra/.test(s.name ?? '')).length, 1);
  assert.equal(sites.find((s) => /Luisenstra/.test(s.name ?? ''))?.source, 'karlsruhe-parkhaeuser', 'the city feed is preferred');
  const extra = sites.find((s) => s.source === 'parkapi-karlsruhe');
  assert.equal(extra?.name, 'Tiefgarage Schlossplatz');
  assert.equal(extra?.free_spaces, 120);
  assert.equal(extra?.license, 'CC BY 4.0 (Stadt Karlsruhe)');
  assert.equal(extra?.post_code, '76131');
  const q = fake.requests.map((x) => new URL(x.url, 'http://x')).find((u) => u.pathname === PARKAPI_PATH);
  assert.equal(q?.searchParams.get('source_uid'), 'karlsruhe');
  assert.equal(q?.searchParams.get('purpose'), 'CAR');
});

test('GET parking: Stuttgart (ParkAPI v3 only) answers from its own source with its licence', async () => {
  const r = await ctx.app.get('/api/v1/cities/stuttgart/parking');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const sites = list<Site>(r.json, 'data');
  assert.equal(sites.length, 3);
  assert.equal(sites[0]?.free_spaces, 123);
  assert.equal(sites[0]?.license, 'DL-DE/BY 2.0 (Landeshauptstadt Stuttgart, Tiefbauamt)');
  assert.equal(sites[1]?.free_spaces, null);
  assert.match(str(r.json, 'attribution.text'), /MobiData BW/);
  assert.ok(Date.now() - Date.parse(str(r.json, 'meta.as_of')) < 48 * 3600_000);
});

test('GET parking: Dortmund from its own Opendatasoft feed; ParkenDD not answering is named, not fatal', async () => {
  const r = await ctx.app.get('/api/v1/cities/dortmund/parking');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const sites = list<Site>(r.json, 'data');
  assert.equal(sites.length, 4);
  assert.equal(sites[0]?.source, 'dortmund-parkhaeuser');
  assert.equal(sites[0]?.license, 'DL-DE/Zero 2.0 (Stadt Dortmund)');
  assert.equal(sites[0]?.free_spaces, 102);
  assert.equal(sites[2]?.state, 'closed');
  assert.equal(sites[3]?.free_spaces, null);
  assert.deepEqual(at(r.json, 'meta.merged_sources'), ['dortmund-parkhaeuser']);
  assert.equal(at(r.json, 'meta.left_out_sources.0.source'), 'parkendd-dortmund');
});

test('parking: a ParkAPI source frozen for 48 h is left out with the reason; alone it is no_data', async () => {
  parkapiUnreplayed('karlsruhe');
  const r = await freshGet('/api/v1/cities/karlsruhe/parking');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(list<Site>(r.json, 'data').length, 8);
  assert.equal(at(r.json, 'meta.left_out_sources.0.source'), 'parkapi-karlsruhe');
  assert.match(str(r.json, 'meta.left_out_sources.0.reason'), /not been updated since 2024-11-27T19:35:00\+01:00/);
  parkapiUnreplayed('stuttgart');
  const s = await freshGet('/api/v1/cities/stuttgart/parking');
  assert.equal(at(s.json, 'meta.source_status'), 'no_data');
  assert.equal(at(s.json, 'data'), null);
  assert.match(str(s.json, 'meta.reason'), /not been updated since/);
});

test('parking: ParkAPI down keeps the city feed; the city feed down keeps ParkAPI; both down is a 503', async () => {
  fake.get(PARKAPI_PATH, { status: 502, body: 'Bad Gateway' });
  const a = await freshGet('/api/v1/cities/karlsruhe/parking');
  assert.equal(list<Site>(a.json, 'data').length, 8);
  assert.equal(at(a.json, 'meta.left_out_sources.0.source'), 'parkapi-v3');
  registerParkapiV3(fake);
  fake.get('/geoserver/TBA/ows', { status: 503, body: 'down' });
  const b = await freshGet('/api/v1/cities/karlsruhe/parking');
  assert.equal(at(b.json, 'meta.source_status'), 'ok');
  assert.equal(list<Site>(b.json, 'data').length, 3);
  assert.equal(at(b.json, 'meta.left_out_sources.0.source'), 'karlsruhe-parkhaeuser');
  fake.get(PARKAPI_PATH, { status: 502, body: 'Bad Gateway' });
  const c = await freshGet('/api/v1/cities/karlsruhe/parking');
  assert.equal(c.status, 503);
  assert.equal(at(c.json, 'code'), 'upstream_unavailable');
});

test('parking: a malformed ParkAPI or Dortmund body is never a 500', async () => {
  fake.get(PARKAPI_PATH, { json: { detail: 'Internal error' } });
  const s = await freshGet('/api/v1/cities/stuttgart/parking');
  assert.equal(s.status, 503);
  assert.equal(at(s.json, 'code'), 'upstream_unavailable');
  fake.get('/api/explore/v2.1/catalog/datasets/parkhauser/records', { body: '<html>Wartung</html>', headers: { 'content-type': 'text/html' } });
  const d = await freshGet('/api/v1/cities/dortmund/parking');
  assert.equal(d.status, 503);
  assert.doesNotMatch(d.text, /Wartung/);
});

test('parking: cities without an open feed are not_covered; ParkAPI switched off is disabled where it answers alone', async () => {
  const n = await ctx.app.get('/api/v1/cities/bochum/parking');
  assert.equal(at(n.json, 'meta.source_status'), 'not_covered');
  const covered = at(n.json, 'meta.covered_cities') as string[];
  for (const c of ['stuttgart', 'dortmund', 'karlsruhe', 'heidelberg']) assert.ok(covered.includes(c), c);
  assert.ok(!covered.includes('mannheim'), 'Mannheim states no open licence');
  await expectDisabled({ fake, env: { PARKAPI_V3_ENABLED: 'false' }, path: '/api/v1/cities/stuttgart/parking', upstreamPrefix: PARKAPI_PATH });
  const k = await freshGet('/api/v1/cities/karlsruhe/parking', { PARKAPI_V3_ENABLED: 'false' });
  assert.equal(list<Site>(k.json, 'data').length, 8);
  assert.match(str(k.json, 'meta.left_out_sources.0.reason'), /PARKAPI_V3_ENABLED/);
});
