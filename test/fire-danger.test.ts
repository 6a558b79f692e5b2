import { at, list, num, obj, str } from './helpers/json.ts';
import { nth } from './helpers/must.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { gz, register as registerDwdFire, replayAsCurrent } from './fixtures/dwd-fire/routes.ts';
import { latestRun, nearestFireStation, parseFireStations, unpack } from '../src/sources/dwd-fire/parse.ts';
import { gzipSync } from 'node:zlib';

const ctx = useFakeApp(registerDwdFire);
const { fake } = ctx;
const BASE = '/climate_environment/CDC/derived_germany/fire_danger_index';
const WOODLAND_662 = `${BASE}/woodland/forecast/recent/derived_germany_fire_danger_index_woodland_forecast_recent_662_v2-3--0.csv.gz`;
const GRASSLAND_662 = `${BASE}/grassland/forecast/recent/derived_germany_fire_danger_index_grassland_forecast_recent_662_v2-0--0.csv.gz`;

test('parser: the real Latin-1 fixed-width station list', () => {
  const stations = parseFireStations(fixture('dwd-fire/woodland-stations_list-excerpt-latin1.txt').toString('latin1'));
  assert.equal(stations.length, 3);
  assert.deepEqual(stations[0], { id: '44', name: 'Großenkneten', state: 'Niedersachsen', lat: 52.93, lon: 8.24, height_m: 44 });
  assert.equal(nth(stations, 2).name, 'Seebach (Nationalpark)');
  assert.equal(nth(stations, 2).state, 'Baden-Württemberg');
  const near = nearestFireStation(stations, 52.2625, 10.5205)!;
  assert.equal(near.id, '662');
  assert.equal(near.distance_km, 5.7);
});

test('parser: the real station file: the newest run wins, Termin is UTC, levels 1..5', () => {
  const csv = fixture('dwd-fire/woodland-662-braunschweig-excerpt.csv');
  const run = latestRun(unpack(gzipSync(csv)), 'wbi')!;
  assert.equal(run.run_at, '2026-09-11T06:14:00+02:00');
  assert.deepEqual(run.levels, [2, 2, 1, 1, 1, 1, 1]);
  assert.deepEqual(latestRun(unpack(csv), 'wbi'), run);
  assert.deepEqual(latestRun('StationsID;Termin;wbi_0\n662;20260911 04:14;-99\n', 'wbi')!.levels.slice(0, 1), [null]);
});

test('GET fire-danger: nearest station with distance, both indices, labels, current day', async () => {
  const r = await ctx.app.get('/api/v1/cities/braunschweig/fire-danger');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = obj(r.json, 'data');
  assert.equal(at(d, 'station.name'), 'Braunschweig');
  assert.equal(at(d, 'station.distance_km'), 5.7);
  assert.equal(at(d, 'woodland.index'), 'WBI');
  assert.deepEqual(
    list<{ level: number }>(d, 'woodland.days').map((x) => x.level),
    [2, 2, 1, 1, 1, 1, 1],
  );
  assert.equal(at(d, 'woodland.days.0.label'), 'geringe Gefahr');
  assert.equal(at(d, 'woodland.days.0.label_en'), 'low');
  assert.equal(at(d, 'grassland.index'), 'GLFI');
  assert.ok(at(d, 'woodland.today'));
  assert.ok([at(d, 'woodland.today.level'), at(d, 'grassland.today.level')].includes(at(d, 'level_today')));
  assert.equal(at(r.json, 'attribution.modified'), true);
});

test('fire-danger: the station list is fetched once for several cities (cached for a day)', async () => {
  await ctx.app.get('/api/v1/cities/wolfsburg/fire-danger');
  await ctx.app.get('/api/v1/cities/salzgitter/fire-danger');
  assert.equal(fake.count(`${BASE}/woodland/forecast/recent/derived_germany_fire_danger_index_woodland_forecast_recent_v2-3--0_stations_list.txt`), 0);
});

test('fire-danger: a run older than a day (outside the season) is no_data with the reason, not stale values', async () => {
  fake.get(WOODLAND_662, gz('dwd-fire/woodland-662-braunschweig-excerpt.csv', false));
  fake.get(GRASSLAND_662, gz('dwd-fire/grassland-662-constructed.csv', false));
  const fresh = await startApp(fakeEnv(fake.url));
  try {
    const r = await fresh.get('/api/v1/cities/braunschweig/fire-danger');
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'no_data');
    assert.equal(at(r.json, 'data'), null);
    assert.match(str(r.json, 'meta.reason'), /older than a day/);
    assert.equal(at(r.json, 'meta.last_run_at'), '2026-09-11T06:14:00+02:00');
    assert.equal(at(r.json, 'meta.station'), 'Braunschweig');
  } finally {
    await fresh.close();
  }
});

test('fire-danger: a city farther than 50 km from every station is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/fire-danger');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /50 km/);
});

test('fire-danger: a station without files for either index is no_data', async () => {
  // Oldenburg's nearest station is Großenkneten (44), for which no file is published here.
  const r = await ctx.app.get('/api/v1/cities/oldenburg/fire-danger');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /no fire danger forecast file/);
});

test('fire-danger: only the woodland file present still answers, grassland null', async () => {
  fake.get(GRASSLAND_662, { status: 404, body: 'not found' });
  const fresh = await startApp(fakeEnv(fake.url));
  try {
    const r = await fresh.get('/api/v1/cities/braunschweig/fire-danger');
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(at(r.json, 'data.grassland'), null);
    assert.equal(at(r.json, 'data.woodland.index'), 'WBI');
  } finally {
    await fresh.close();
  }
});

test('fire-danger: DWD_FIRE_ENABLED=false is disabled without an upstream call', async () => {
  await expectDisabled({ fake, env: { DWD_FIRE_ENABLED: 'false' }, path: '/api/v1/cities/braunschweig/fire-danger', upstreamPrefix: BASE });
});

test('fire-danger: dead upstream with nothing cached is a 503 problem', async () => {
  await expectUnavailable({ fake, path: '/api/v1/cities/braunschweig/fire-danger' });
});

test('fire-danger: malformed bodies (broken gzip, unknown columns, empty list) are a 503 problem, never a 500', async () => {
  for (const broken of [
    () => fake.get(WOODLAND_662, { body: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]) }),
    () => fake.get(WOODLAND_662, { body: gzipSync('Station;Datum;x\n662;heute;2\n') }),
    () => fake.get(/_stations_list\.txt$/, { body: '' }),
  ]) {
    registerDwdFire(fake);
    broken();
    const fresh = await startApp(fakeEnv(fake.url));
    try {
      const r = await fresh.get('/api/v1/cities/braunschweig/fire-danger');
      assert.equal(r.status, 503);
      assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    } finally {
      await fresh.close();
    }
  }
});

test('fixture replay keeps the levels and moves only the run dates', () => {
  const csv = fixture('dwd-fire/woodland-662-braunschweig-excerpt.csv').toString();
  const replayed = replayAsCurrent(csv, new Date('2026-11-25T10:00:00Z'));
  assert.match(replayed, /662;20261125 04:14;2;2;1;1;1;1;1/);
  assert.match(replayed, /662;20261124 04:14;2;3;2;1;1;1;2/);
});

test('compare resource fire-danger: the level of the day per city', async () => {
  const r = await ctx.app.get('/api/v1/compare?cities=braunschweig,berlin&resource=fire-danger');
  assert.equal(r.status, 200);
  const by = Object.fromEntries(list<{ city: string }>(r.json, 'data').map((i) => [i.city, i]));
  assert.ok([1, 2, 3].includes(num(by, 'braunschweig.data.level_today')));
  assert.equal(at(by, 'berlin.source_status'), 'no_data');
});
