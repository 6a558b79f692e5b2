import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, num, str } from './helpers/json.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { FREIBURG, HERRENBERG_V1, KARLSRUHE, geojson, register as registerCityParking } from './fixtures/city-parking/routes.ts';
import { parseParkenddCity } from '../src/sources/city-parking/parkendd.ts';
import { parseFreiburgPls } from '../src/sources/city-parking/freiburg.ts';
import { parseKarlsruheParkhaeuser } from '../src/sources/city-parking/karlsruhe.ts';
import { splitStreet } from '../src/core/address.ts';
import { nth } from './helpers/must.ts';
import { type TestResponse } from './helpers/app.ts';

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path);

const ctx = useFakeApp(registerCityParking);
const { fake } = ctx;

interface Site {
  id: string;
  name: string | null;
  capacity: number | null;
  free_spaces: number | null;
  occupancy_share: number | null;
  lat: number | null;
  lon: number | null;
  source: string;
  license: string;
  updated_at: string | null;
  state: string | null;
  post_code: string | null;
  street: string | null;
  house_number: string | null;
}

test('parser: the real Freiburg WFS answer (EPSG:25832, local times, capacity 0 = no data)', () => {
  const sites = parseFreiburgPls(JSON.parse(fixture(FREIBURG).toString()));
  assert.equal(sites.length, 19);
  const first = nth(sites, 0);
  assert.equal(first.name, 'Zur Unterführung');
  assert.equal(first.id, 'freiburg-parkleitsystem:P5');
  assert.equal(first.capacity, 105);
  assert.equal(first.free_spaces, 56);
  assert.equal(first.occupancy_share, 0.467);
  // 10:20 local time in June is CEST
  assert.equal(first.updated_at, '2024-06-10T10:20:00+02:00');
  // UTM 32N 413824.9 / 5317088.9 lies near Freiburg Hauptbahnhof
  assert.ok(Math.abs((first.lat ?? 0) - 47.998) < 0.01, String(first.lat));
  assert.ok(Math.abs((first.lon ?? 0) - 7.84) < 0.01, String(first.lon));
  const bahnhofsgarage = sites.find((s) => s.name === 'Bahnhofsgarage');
  assert.equal(bahnhofsgarage?.capacity, null);
  assert.equal(bahnhofsgarage?.free_spaces, null);
  assert.equal(first.license, 'DL-DE/BY 2.0 (Stadt Freiburg im Breisgau)');
});

test('parser: the real Karlsruhe layer: live only where flagged, a fault drops the count, street split', () => {
  const sites = parseKarlsruheParkhaeuser(JSON.parse(fixture(KARLSRUHE).toString()));
  assert.equal(sites.length, 8);
  const luisen = sites.find((s) => s.name === 'Luisenstraße');
  assert.equal(luisen?.free_spaces, 181);
  assert.equal(luisen?.capacity, 349);
  assert.equal(luisen?.street, 'Luisenstraße');
  assert.equal(luisen?.house_number, '2f');
  assert.equal(luisen?.post_code, '76137');
  assert.equal(luisen?.state, 'open');
  assert.equal(luisen?.updated_at, '2024-11-27T19:35:00+01:00');
  const ph1 = sites.find((s) => s.name === 'Kongresszentrum PH1');
  assert.equal(ph1?.free_spaces, null, 'Störung');
  assert.equal(ph1?.state, 'unknown');
  const film = sites.find((s) => s.name === 'Filmpalast am ZKM');
  assert.equal(film?.free_spaces, null);
  assert.equal(film?.updated_at, null);
  assert.equal(film?.capacity, 250);
  assert.deepEqual(parseKarlsruheParkhaeuser(JSON.parse(fixture(KARLSRUHE).toString()), 'Rastatt'), []);
  assert.deepEqual(splitStreet('Bahnhofplatz 1'), { street: 'Bahnhofplatz', house_number: '1' });
  assert.deepEqual(splitStreet('Am Markt'), { street: 'Am Markt', house_number: null });
  assert.deepEqual(splitStreet('SPESSARTSTR. 22-24'), { street: 'SPESSARTSTR.', house_number: '22-24' });
  assert.deepEqual(splitStreet('B 27'), { street: 'B 27', house_number: null });
});

test('GET parking: Freiburg sites with source, licence, occupancy share and current feed time', async () => {
  const r = await ctx.app.get('/api/v1/cities/freiburg-im-breisgau/parking');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const sites = list<Site>(r.json, 'data');
  assert.equal(sites.length, 19);
  const p5 = sites.find((s) => s.id === 'freiburg-parkleitsystem:P5');
  assert.equal(p5?.free_spaces, 56);
  assert.equal(p5?.occupancy_share, 0.467);
  assert.equal(p5?.source, 'freiburg-parkleitsystem');
  assert.ok(Date.now() - Date.parse(str(r.json, 'data.0.updated_at')) < 48 * 3600_000);
  assert.match(str(r.json, 'attribution.text'), /Freiburg/);
  assert.equal(at(r.json, 'meta.refresh_seconds'), 120);
  assert.equal(at(r.json, 'meta.as_of'), str(r.json, 'data.0.updated_at'), 'as_of is the feed time');
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.equal(q.get('typename'), 'pls');
});

test('GET parking: Karlsruhe keeps only the city, post codes are 5-character strings', async () => {
  const r = await ctx.app.get('/api/v1/cities/karlsruhe/parking');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const sites = list<Site>(r.json, 'data');
  assert.equal(sites.length, 8);
  for (const s of sites) assert.equal(s.post_code?.length, 5);
  assert.equal(num(r.json, 'data.7.free_spaces'), 181);
});

test('parking: a feed frozen for more than 48 h is no_data with the reason, never live', async () => {
  fake.get('/wfs/gdm_pls/gdm_plslive', geojson(FREIBURG, false));
  const r = await freshGet('/api/v1/cities/freiburg-im-breisgau/parking');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /not been updated since 2024-06-10T10:20:00\+02:00/);
});

test('parking: an empty feed is no_data', async () => {
  fake.get('/geoserver/TBA/ows', { json: { type: 'FeatureCollection', features: [] } });
  const r = await freshGet('/api/v1/cities/karlsruhe/parking');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
});

test('parking: a city without an open feed is not_covered with the covered cities', async () => {
  const r = await ctx.app.get('/api/v1/cities/bochum/parking');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.ok((at(r.json, 'meta.covered_cities') as string[]).includes('karlsruhe'));
  assert.ok((at(r.json, 'meta.covered_cities') as string[]).includes('dresden'));
  assert.equal(fake.count('/wfs'), 0);
});

test('parking: a garbage body or a dead upstream is a 503 problem, never a 500', async () => {
  fake.get('/geoserver/TBA/ows', { body: '<html>Wartung</html>', headers: { 'content-type': 'text/html' } });
  const r = await freshGet('/api/v1/cities/karlsruhe/parking');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  await expectUnavailable({ fake, path: '/api/v1/cities/freiburg-im-breisgau/parking' });
});

test('parking: switched off is disabled and asks no upstream', async () => {
  await expectDisabled({ fake, env: { FREIBURG_PARKING_ENABLED: 'false' }, path: '/api/v1/cities/freiburg-im-breisgau/parking' });
});

test('parser: the real ParkAPI v1 (ParkenDD format) answer: UTC times, nodata lots have no count, addresses split', () => {
  const { updated_at, sites } = parseParkenddCity(JSON.parse(fixture(HERRENBERG_V1).toString()), 'parkendd-herrenberg', 'test');
  assert.equal(updated_at, '2025-02-25T13:20:03+01:00');
  assert.equal(sites.length, 26);
  const live = sites.filter((s) => s.free_spaces !== null);
  assert.deepEqual(
    live.map((s) => s.name),
    ['Altstadtgarage', 'Bronntor', 'Volksbank', 'Wohnmobilhafen Herrenberg'],
  );
  const alt = nth(live, 0);
  assert.equal(alt.free_spaces, 60);
  assert.equal(alt.capacity, 97);
  assert.equal(alt.post_code, '71083');
  assert.equal(alt.place, 'Herrenberg');
  assert.equal(alt.street, null);
  const seel = sites.find((s) => s.name === 'Parkgarage Seeländer');
  assert.equal(seel?.street, 'Seeländerplatz');
  assert.equal(seel?.house_number, '1');
  assert.equal(seel?.capacity, null);
  assert.equal(seel?.state, 'unknown');
});

test('GET parking: Dresden through ParkenDD names its origin licence; nodata and closed lots carry no count', async () => {
  const r = await ctx.app.get('/api/v1/cities/dresden/parking');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const sites = list<Site>(r.json, 'data');
  assert.equal(sites.length, 4);
  assert.equal(sites[0]?.license, 'DL-DE/BY 2.0 (Landeshauptstadt Dresden)');
  assert.equal(sites[0]?.source, 'parkendd-dresden');
  assert.equal(sites[0]?.free_spaces, 212);
  assert.equal(sites[0]?.post_code, '01067');
  assert.equal(sites[2]?.free_spaces, null);
  assert.equal(sites[3]?.state, 'closed');
  assert.equal(sites[3]?.free_spaces, 0);
});

test('parking: a ParkenDD city that answers 404 is a 503 problem; one listing no lot is no_data; Bonn (CC BY-NC) is not covered', async () => {
  fake.get('/Ulm', { status: 404, body: "Error 404: Sorry, 'Ulm' isn't supported at the current time.", headers: { 'content-type': 'text/plain' } });
  const r = await freshGet('/api/v1/cities/ulm/parking');
  assert.equal(r.status, 503);
  const empty = await ctx.app.get('/api/v1/cities/hamburg/parking');
  assert.equal(at(empty.json, 'meta.source_status'), 'no_data');
  assert.match(String(at(empty.json, 'meta.reason')), /no car park/);
  const b = await ctx.app.get('/api/v1/cities/bonn/parking');
  assert.equal(at(b.json, 'meta.source_status'), 'not_covered');
});

test('compare parking: free spaces summed over the sites with a live count, per city', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=parking&cities=freiburg-im-breisgau,karlsruhe,bochum');
  assert.equal(r.status, 200);
  const by = Object.fromEntries(list<{ city: string }>(r.json, 'data').map((i) => [i.city, i]));
  assert.equal(at(by, 'karlsruhe.data.free_spaces'), 437 + 181);
  assert.equal(at(by, 'karlsruhe.data.live_sites'), 2);
  assert.equal(at(by, 'freiburg-im-breisgau.data.sites'), 19);
  // compare reports a city outside the coverage as no_data
  assert.equal(at(by, 'bochum.source_status'), 'no_data');
});
