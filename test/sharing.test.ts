import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { at, list, num, obj, str } from './helpers/json.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { type TestResponse } from './helpers/app.ts';
import { gbfsFile, register as registerNextbike, replayAsCurrent, VIENNA_STATION_INFORMATION, VIENNA_STATION_STATUS } from './fixtures/nextbike/routes.ts';
import { feedUrls, joinStations, openLicense, type StationInformation, type StationStatus } from '../src/sources/nextbike/gbfs.ts';
import { fixture } from './helpers/fake-upstream.ts';

const ctx = useFakeApp(registerNextbike);
const { fake } = ctx;
const SYS = '/maps/gbfs/v2/nextbike_le';

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path);

interface Station {
  station_id: string;
  name: string | null;
  vehicles_available: number | null;
  is_renting: boolean | null;
  distance_km: number;
  last_reported: string | null;
}

test('parser: discovery prefers German feeds; only open licences pass', () => {
  const urls = feedUrls(JSON.parse(fixture('nextbike/gbfs-le-constructed.json').toString()));
  assert.equal(urls.get('station_status'), 'https://gbfs.nextbike.net/maps/gbfs/v2/nextbike_le/de/station_status.json');
  assert.equal(openLicense({ license_id: 'CC0-1.0' }), 'CC0-1.0');
  assert.equal(openLicense({ license_url: 'https://creativecommons.org/licenses/by/4.0/' }), 'https://creativecommons.org/licenses/by/4.0/');
  assert.equal(openLicense({ license_url: 'https://example.com/terms' }), null);
  assert.equal(openLicense({}), null);
  assert.throws(() => feedUrls({ data: { de: { feeds: [] } } }), /no feeds/);
});

test('parser on the recorded nextbike GBFS 2.3 feeds of Vienna: capacity missing is null, names trimmed and collapsed, status joined', () => {
  const info = JSON.parse(fixture(VIENNA_STATION_INFORMATION).toString()) as { data: StationInformation };
  const status = JSON.parse(fixture(VIENNA_STATION_STATUS).toString()) as { data: StationStatus };
  const stations = joinStations(info.data, status.data, 'vienna');
  assert.equal(stations.length, 261);
  assert.equal(stations.filter((s) => s.capacity === null).length, 63, '63 stations without capacity: null, never 0');
  const raab = stations.find((s) => s.station_id === '68577704');
  assert.deepEqual(
    { ...raab, last_reported: Date.parse(raab?.last_reported ?? '') },
    {
      system_id: 'vienna',
      station_id: '68577704',
      name: 'Julius-Raab-Platz',
      lat: 48.211544,
      lon: 16.382374,
      capacity: 17,
      vehicles_available: 12,
      docks_available: 2,
      is_renting: true,
      last_reported: 1762856473000,
    },
  );
  assert.equal(stations.find((s) => s.station_id === '71501335')?.capacity, null, 'Bacherplatz has no capacity');
  const names = stations.map((s) => s.name ?? '');
  assert.ok(names.includes('Hütteldorf S U'), 'double blank collapsed');
  assert.ok(names.includes('Absbergbrücke'), 'trailing blank dropped');
  assert.ok(names.every((n) => n === n.trim() && !n.includes('  ')));
  const vehicles = stations.reduce((n, s) => n + (s.vehicles_available ?? 0), 0);
  assert.equal(vehicles, 3497, 'the 3,497 bikes of the recorded status');
});

test("sharing honest about place: Vienna's recorded stations served in Leipzig's feeds never appear for Leipzig", async () => {
  const compact = (file: string) => replayAsCurrent(JSON.stringify(JSON.parse(fixture(file).toString())));
  fake.get(`${SYS}/de/station_information.json`, { body: compact(VIENNA_STATION_INFORMATION), headers: { 'content-type': 'application/json' } });
  fake.get(`${SYS}/de/station_status.json`, { body: compact(VIENNA_STATION_STATUS), headers: { 'content-type': 'application/json' } });
  const r = await freshGet('/api/v1/cities/leipzig/sharing');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok', "Leipzig's own free-floating bike still answers");
  assert.deepEqual(list(r.json, 'data.stations'), [], 'no station 500 km away');
  assert.equal(num(r.json, 'data.aggregates.stations'), 0);
  assert.equal(num(r.json, 'data.aggregates.vehicles_available'), 1, "none of Vienna's 3,497 bikes");
  assert.doesNotMatch(r.text, /Julius-Raab-Platz|Hütteldorf/);
});

test('GET sharing: Leipzig stations within the radius joined with status, rentable free-floating bikes, licence per system', async () => {
  const r = await ctx.app.get('/api/v1/cities/leipzig/sharing');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const stations = list<Station>(r.json, 'data.stations');
  assert.deepEqual(
    stations.map((s) => s.station_id),
    ['4020', '4019'],
  );
  assert.equal(stations[1]?.vehicles_available, 7);
  assert.equal(stations[0]?.is_renting, false);
  assert.match(stations[0]?.last_reported ?? '', /[+-]\d{2}:\d{2}$/);
  assert.equal(list(r.json, 'data.free_floating').length, 1);
  const sys = obj(r.json, 'data.systems.0');
  assert.equal(sys.license, 'CC0-1.0');
  assert.equal(sys.system_id, 'nextbike_le');
  // 7 at the renting station (the other one rents nothing) + 1 free-floating
  assert.equal(num(r.json, 'data.aggregates.vehicles_available'), 8);
  assert.deepEqual(at(r.json, 'meta.excluded_systems'), []);
});

test('sharing: a feed that stopped updating is no_data with the reason', async () => {
  fake.get(/^\/maps\/gbfs\/v2\//, (_req, url) => gbfsFile(url.pathname, false));
  const r = await freshGet('/api/v1/cities/leipzig/sharing');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /has not been updated since/);
});

test('sharing: a system without an open licence is left out and named in meta.excluded_systems', async () => {
  fake.get(`${SYS}/de/system_information.json`, {
    json: { last_updated: 1, ttl: 60, version: '2.3', data: { system_id: 'nextbike_le', name: 'x', license_url: 'https://www.nextbike.de/de/agb/' } },
  });
  const r = await freshGet('/api/v1/cities/leipzig/sharing');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.deepEqual(at(r.json, 'meta.excluded_systems'), ['nextbike_le']);
});

test('sharing: no station or bike in the city is no_data; a city without a system is not_covered', async () => {
  fake.get(`${SYS}/de/station_information.json`, { json: { last_updated: 1, ttl: 60, version: '2.3', data: { stations: [] } } });
  fake.get(`${SYS}/de/free_bike_status.json`, { json: { last_updated: 1, ttl: 60, version: '2.3', data: { bikes: [] } } });
  const r = await freshGet('/api/v1/cities/leipzig/sharing');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  const n = await ctx.app.get('/api/v1/cities/gelsenkirchen/sharing');
  assert.equal(at(n.json, 'meta.source_status'), 'not_covered');
  assert.ok((at(n.json, 'meta.covered_cities') as string[]).includes('leipzig'));
});

test('sharing: a garbage discovery file, a feed URL outside the base or a dead upstream is 503, never 500', async () => {
  fake.get(`${SYS}/gbfs.json`, { body: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } });
  assert.equal((await freshGet('/api/v1/cities/leipzig/sharing')).status, 503);
  fake.get(`${SYS}/gbfs.json`, { json: { last_updated: 1, data: { de: { feeds: [{ name: 'system_information', url: 'http://169.254.169.254/latest' }] } } } });
  const r = await freshGet('/api/v1/cities/leipzig/sharing');
  assert.equal(r.status, 503);
  assert.doesNotMatch(r.text, /169\.254/);
  await expectUnavailable({ fake, path: '/api/v1/cities/leipzig/sharing' });
  await expectDisabled({ fake, env: { NEXTBIKE_GBFS_ENABLED: 'false' }, path: '/api/v1/cities/leipzig/sharing' });
});

test('compare sharing: the aggregates only', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=sharing&cities=leipzig');
  assert.equal(r.status, 200);
  assert.deepEqual(at(r.json, 'data.0.data'), { systems: 1, stations: 2, vehicles_available: 8 });
});
