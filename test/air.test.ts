import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerUba } from './fixtures/uba/routes.ts';
import { recentWindow, ubaHourEndingAt, ubaTimeToIso } from '../src/sources/uba/cet.ts';
import { isActive, nearestActive, parseStations } from '../src/sources/uba/stations.ts';
import { nameCore as placeKey } from '../src/core/fold.ts';
import { latestPerStation, stationKey } from '../src/sources/uba/measures.ts';
import { latestAirquality } from '../src/sources/uba/airquality.ts';
import { DEPRECATED_SINCE } from '../src/http/deprecation.ts';
import { nth } from './helpers/must.ts';
import { at, list, num, str } from './helpers/json.ts';

const json = (path: string) => JSON.parse(fixture(path).toString());
const BASE = '/api/air-data/v3';

const ctx = useFakeApp(registerUba);
const { fake } = ctx;

const measureCalls = () => fake.requests.filter((r) => r.url.startsWith(`${BASE}/measures/json`)).map((r) => new URL(r.url, 'http://x').searchParams);

test('UBA time: naive CET is UTC+1 in winter and in summer alike', () => {
  // winter: CET equals Berlin time
  assert.equal(ubaTimeToIso('2023-02-06 12:00:00'), '2023-02-06T12:00:00+01:00');
  // summer: 09:00 CET is 08:00 UTC, i.e. 10:00 CEST (not 09:00+02:00)
  assert.equal(ubaTimeToIso('2026-09-04 09:00:00'), '2026-09-04T10:00:00+02:00');
  assert.equal(ubaTimeToIso('2026-07-15 14:00:00'), '2026-07-15T15:00:00+02:00');
});

test('UBA time: hour 24 is midnight of the next day', () => {
  assert.equal(ubaTimeToIso('2026-01-15 24:00:00'), '2026-01-16T00:00:00+01:00');
  assert.equal(ubaTimeToIso('2026-09-03 24:00:00'), '2026-09-04T01:00:00+02:00');
  assert.equal(ubaTimeToIso('2026-12-31 24:00:00'), '2027-01-01T00:00:00+01:00');
  assert.throws(() => ubaTimeToIso('2026-01-15T25:00'));
});

test('UBA request window: hours are named by their end, 1..24 in CET', () => {
  // 23:30 UTC = 00:30 CET on the 16th: the last complete hour ends at 24:00 of the 15th
  assert.deepEqual(recentWindow(new Date('2026-01-15T23:30:00Z'), 6), { date_from: '2026-01-15', time_from: 19, date_to: '2026-01-15', time_to: 24 });
  // summer: 10:20 UTC = 11:20 CET (no DST in CET)
  assert.deepEqual(recentWindow(new Date('2026-07-15T10:20:00Z'), 6), { date_from: '2026-07-15', time_from: 6, date_to: '2026-07-15', time_to: 11 });
  assert.deepEqual(ubaHourEndingAt(new Date('2026-03-01T00:00:00Z')), { date: '2026-03-01', hour: 1 });
});

test('parser: stations/json by column name, active filter, distance order', () => {
  const stations = parseStations(json('uba/stations-use-airquality.json'));
  assert.equal(stations.length, 4);
  const bs = stations.find((s) => s.id === '513')!;
  assert.equal(bs.code, 'DENI063');
  assert.equal(bs.place, 'Braunschweig');
  assert.equal(bs.lat, 52.2733);
  assert.equal(bs.lon, 10.5268);
  // the last column is "station zip" in this answer, "station zip code" in the documentation
  assert.equal(bs.post_code, '38100');
  assert.equal(stations.find((s) => s.id === '21')!.street, 'Am Bassinplatz');
  assert.equal(
    isActive(
      stations.find((s) => s.id === '900')!,
      '2026-09-04',
    ),
    false,
  );
  const near = nearestActive(stations, 52.2625, 10.5205, '2026-09-04', 30);
  assert.deepEqual(
    near.map((s) => s.id),
    ['901', '513'],
  );
  assert.ok(nth(near, 0).distance_km < nth(near, 1).distance_km);
  assert.throws(() => parseStations({ data: {} }), /indices/);
});

test('parser: place names compared without qualifiers', () => {
  assert.equal(placeKey('Frankfurt am Main'), placeKey('Frankfurt/Main'));
  assert.equal(placeKey('Halle (Saale)'), 'halle');
  assert.equal(placeKey('Mülheim an der Ruhr'), 'muelheim');
  assert.equal(placeKey('Bergisch Gladbach'), 'bergisch gladbach');
});

test('parser: airquality/json real samples (summer v3, winter v2), newest hour wins', () => {
  const bs = latestAirquality(json('uba/airquality-station513-2026-09-04.json'), '513')!;
  assert.equal(bs.start, '2026-09-04T09:00:00+02:00');
  assert.equal(bs.end, '2026-09-04T10:00:00+02:00');
  assert.equal(bs.index, 1);
  assert.equal(bs.index_label_en, 'good');
  assert.equal(bs.incomplete, true);
  assert.deepEqual(
    bs.components.map((c) => [c.component, c.value, c.index]),
    [
      ['O3', 67, 1],
      ['NO2', 5, 0],
    ],
  );
  const berlin = latestAirquality({ data: json('uba/airquality-data-member-station158-2024-10-02.json') }, '158')!;
  assert.equal(berlin.end, '2024-10-02T16:00:00+02:00');
  assert.deepEqual(
    berlin.components.map((c) => c.component),
    ['O3', 'NO2', 'PM10', 'PM2.5'],
  );
  assert.equal(berlin.incomplete, false);
  const winter = latestAirquality(json('uba/airquality-v2-station509-2023-02-06.json'), '509')!;
  assert.equal(winter.start, '2023-02-06T11:00:00+01:00');
  assert.equal(winter.end, '2023-02-06T12:00:00+01:00');
  // unsorted rows and an hour ending at 24:00
  const traffic = latestAirquality(json('uba/airquality-station901-2026-09-04.json'), '901')!;
  assert.equal(traffic.end, '2026-09-04T10:00:00+02:00');
  assert.equal(latestAirquality({ data: {} }, '513'), null);
});

/** One station's newest value, as the adapter reads it from an answer listing every station. */
const latestOf = (body: Parameters<typeof latestPerStation>[0], id: string) => latestPerStation(body)[stationKey(id)] ?? null;

test('parser: measures/json latest non-null value, hour 24 in winter', () => {
  const pm10 = latestOf(json('uba/measures-901-1.json'), '901')!;
  assert.deepEqual(pm10, { component_id: 1, scope_id: 2, value: 24, start: '2026-09-04T09:00:00+02:00', end: '2026-09-04T10:00:00+02:00', index: 1 });
  // the newest PM2.5 hour is null (not yet validated/measured): the hour before is the latest value
  assert.equal(latestOf(json('uba/measures-513-9.json'), '513')!.value, 8.4);
  assert.equal(latestOf(json('uba/measures-513-4.json'), '513'), null);
  const night = latestOf(json('uba/measures-513-5-winter-hour24.json'), '513')!;
  assert.equal(night.start, '2026-01-15T23:00:00+01:00');
  assert.equal(night.end, '2026-01-16T00:00:00+01:00');
  assert.equal(latestOf({ data: {} }, '513'), null);
  assert.throws(() => latestOf({}, '513'), /UBA measures \$\.data: expected record/);
});

test('recorded measures/json (station 143, ozone, 2025-01-01): index as a string, the last hour ending "24:00:00", served at its request', async () => {
  const r = await fetch(`${fake.url}${BASE}/measures/json?date_from=2025-01-01&time_from=1&date_to=2025-01-01&time_to=24&station=143&component=3&scope=2`);
  const body = (await r.json()) as { data: Record<string, Record<string, unknown[]>> };
  assert.deepEqual(body.data['143']?.['2025-01-01 23:00:00'], [3, 2, 64, '2025-01-01 24:00:00', '3'], 'the recording as served');
  assert.deepEqual(latestOf(body, '143'), {
    component_id: 3,
    scope_id: 2,
    value: 64,
    start: '2025-01-01T23:00:00+01:00',
    end: '2025-01-02T00:00:00+01:00',
    index: 3,
  });
  const all = latestPerStation(body);
  assert.deepEqual(Object.keys(all), ['143']);
  assert.equal(all['143']?.index, 3, 'the string "3" read as the index number');
  const first = latestPerStation({ data: { '143': { '2025-01-01 00:00:00': body.data['143']!['2025-01-01 00:00:00']! } } });
  assert.deepEqual([first['143']?.value, first['143']?.index, first['143']?.end], [37, 2, '2025-01-01T01:00:00+01:00']);
});

test('parser: measures/json for every station, per station the latest value, ids as numbers', () => {
  const pm25 = json('uba/measures-513-9.json'),
    so2 = json('uba/measures-513-4.json');
  const all = latestPerStation({ data: { '0513': pm25.data['513'], '901': so2.data['513'] } });
  // "0513" and "513" are one station; a station with only null hours is left out
  assert.deepEqual(Object.keys(all), ['513']);
  assert.equal(all['513']?.value, 8.4);
  assert.equal(stationKey('0513'), '513');
  assert.equal(latestOf({ data: { '513': pm25.data['513'] } }, '0513')?.value, 8.4);
  assert.deepEqual(latestPerStation({ data: [] }), {});
  assert.throws(() => latestPerStation({}), /UBA measures \$\.data: expected record/);
});

test('GET air: five readings, per-component fallback to the next station, station and distance per reading', async () => {
  const r = await ctx.app.get('/api/v1/live/braunschweig/air');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const readings = at(r.json, 'data.readings'),
    stations = at(r.json, 'data.stations');
  // nearest active station (traffic) measures PM10 and NO2 only
  assert.equal(at(readings, 'pm10.value'), 24);
  assert.equal(at(readings, 'pm10.unit'), 'µg/m³');
  assert.equal(at(readings, 'pm10.station.code'), 'DENI901');
  assert.equal(at(readings, 'no2.value'), 31);
  assert.equal(at(readings, 'no2.station.id'), '901');
  // O3 and PM2.5 fall through to the next station
  assert.equal(at(readings, 'o3.value'), 67);
  assert.equal(at(readings, 'o3.station.id'), '513');
  assert.equal(at(readings, 'o3.station.code'), 'DENI063');
  assert.equal(at(readings, 'o3.station.name'), 'Braunschweig');
  assert.equal(at(readings, 'o3.station.distance_km'), at(readings, 'o3.distance_km'));
  assert.ok(num(readings, 'o3.distance_km') > num(readings, 'pm10.distance_km'));
  assert.equal(at(readings, 'pm25.value'), 8.4);
  assert.equal(at(readings, 'pm25.time'), '2026-09-04T09:00:00+02:00');
  assert.equal(at(readings, 'o3.time'), '2026-09-04T10:00:00+02:00');
  assert.equal(at(readings, 'o3.scope'), '1SMW');
  // no station reports SO2
  assert.equal(at(readings, 'so2'), null);
  assert.deepEqual(at(r.json, 'meta.missing_components'), ['so2']);
  assert.deepEqual(
    list<{ id: string }>(stations)
      .map((s: { id: string }) => s.id)
      .sort(),
    ['513', '901'],
  );
  assert.equal(at(r.json, 'meta.as_of'), '2026-09-04T10:00:00+02:00');
  assert.equal(at(r.json, 'attribution.text'), 'Umweltbundesamt');
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/by-2-0');
  // hourly scope, one call per pollutant for every station (the closed one is never read)
  const calls = measureCalls();
  assert.ok(calls.every((q) => q.get('scope') === '2' && !q.has('station')));
  assert.deepEqual(calls.map((q) => q.get('component')).sort(), ['1', '3', '4', '5', '9']);
  assert.equal(fake.count(`${BASE}/stations/json`), 1);
  const q = new URL(fake.requests.find((x) => x.url.startsWith(`${BASE}/stations/json`))!.url, 'http://x').searchParams;
  assert.equal(q.get('use'), 'airquality');
});

test('air: the station list is a shared sub-resource, fetched once for several cities', async () => {
  await ctx.app.get('/api/v1/live/salzgitter/air');
  await ctx.app.get('/api/v1/live/hildesheim/air');
  assert.equal(fake.count(`${BASE}/stations/json`), 0);
});

test('air: deprecated alias answers the same body with Deprecation and Link to the concrete successor (tolerant slug)', async () => {
  const canonical = await ctx.app.get('/api/v1/live/braunschweig/air');
  const alias = await ctx.app.get('/api/v1/cities/Braunschweig/air');
  assert.equal(alias.status, 200);
  assert.deepEqual(at(alias.json, 'data'), at(canonical.json, 'data'));
  assert.equal(at(alias.json, 'meta.city'), 'braunschweig');
  assert.equal(alias.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
  assert.equal(alias.headers.get('link'), '</api/v1/live/braunschweig/air>; rel="successor-version"');
  assert.equal(canonical.headers.get('deprecation'), null);
});

test('air: no active station within reach is no_data', async () => {
  const r = await ctx.app.get('/api/v1/live/kiel/air');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /30 km/);
});

test('air: unknown city is 404 with a hint', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/live/atlantis/air');
});

test('GET air-uba: every station of the municipality with its latest hour', async () => {
  const r = await ctx.app.get('/api/v1/live/braunschweig/air-uba');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.matched_by'), 'municipality');
  assert.deepEqual(
    list<{ code: string }>(r.json, 'data').map((s: { code: string }) => s.code),
    ['DENI901', 'DENI063'],
  );
  const bg = at(r.json, 'data.1');
  assert.equal(at(bg, 'latest.index'), 1);
  assert.equal(at(bg, 'latest.end'), '2026-09-04T10:00:00+02:00');
  assert.equal(at(bg, 'post_code'), '38100');
  assert.equal(at(r.json, 'data.0.latest.components.0.component'), 'PM10');
  assert.equal(at(r.json, 'data.0.street'), 'Bohlweg');
  assert.equal(at(r.json, 'meta.as_of'), '2026-09-04T10:00:00+02:00');
  const q = new URL(fake.requests.find((x) => x.url.startsWith(`${BASE}/airquality/json`))!.url, 'http://x').searchParams;
  for (const k of ['date_from', 'time_from', 'date_to', 'time_to', 'station']) assert.ok(q.get(k), k);
  const alias = await ctx.app.get('/api/v1/cities/braunschweig/air-uba');
  assert.deepEqual(at(alias.json, 'data'), at(r.json, 'data'));
  assert.equal(alias.headers.get('link'), '</api/v1/live/braunschweig/air-uba>; rel="successor-version"');
});

test('air-uba: stations without a published hour, and cities without stations, are no_data', async () => {
  const potsdam = await ctx.app.get('/api/v1/live/potsdam/air-uba');
  assert.equal(at(potsdam.json, 'meta.source_status'), 'no_data');
  assert.equal(at(potsdam.json, 'meta.matched_by'), 'municipality');
  const wolfsburg = await ctx.app.get('/api/v1/live/wolfsburg/air-uba');
  assert.equal(at(wolfsburg.json, 'meta.source_status'), 'no_data');
  assert.equal(at(wolfsburg.json, 'meta.matched_by'), 'radius');
});

test('compare resource air: per-city status', async () => {
  const r = await ctx.app.get('/api/v1/compare?cities=braunschweig,kiel&resource=air');
  assert.equal(r.status, 200);
  const by = Object.fromEntries(
    list<{ city: string; source_status: string }>(r.json, 'data').map((i: { city: string; source_status: string }) => [i.city, i.source_status]),
  );
  assert.equal(by.braunschweig, 'ok');
  assert.equal(by.kiel, 'no_data');
});

test('air: UBA_ENABLED=false answers 200 disabled with data null and no upstream call', async () => {
  await expectDisabled({
    fake,
    env: { UBA_ENABLED: 'false' },
    path: ['/api/v1/live/braunschweig/air', '/api/v1/cities/braunschweig/air', '/api/v1/live/braunschweig/air-uba'],
    upstreamPrefix: BASE,
  });
});

test('air: dead upstream with nothing cached is a 503 problem pointing to /api/v1/health', async () => {
  await expectUnavailable({ fake, path: ['/api/v1/live/braunschweig/air', '/api/v1/live/braunschweig/air-uba'] });
});
