import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { register as registerBrightSky, registerBerlin } from './fixtures/brightsky/routes.ts';
import { at, num, str } from './helpers/json.ts';

/**
 * Bright Sky's answers of 2025-09-18 for Berlin (test/fixtures/brightsky/README.md): the current API shape, with
 * solar windows and a fallback station in current_weather, and /weather records that switch from observations
 * to MOSMIX forecasts mid-list, `relative_humidity: null` on forecasts, `fallback_source_ids` on some records only.
 */
const fake = useFakeUpstream((f) => {
  registerBrightSky(f);
  registerBerlin(f);
});

const CURRENT = 'brightsky/current_weather-berlin-tempelhof-2025-09-18.json';
const SEVEN_DAYS = 'brightsky/weather-berlin-7days-observation-and-forecast-2025-09-18.json';
const FORECAST_24H = 'brightsky/weather-berlin-24h-forecast-2025-09-18.json';

type Hour = { timestamp: string; source_id: number; temperature: number | null };
type Rows = { as_of: string; field: string; value: number; backfilled: boolean }[];
const hours = (file: string) => (JSON.parse(fixture(file).toString()) as { weather: Hour[] }).weather;

async function withHistory(fn: (app: TestApp) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-weather-rec-'));
  const app = await startApp({ ...fakeEnv(fake.url), HISTORY_PATH: join(dir, 'history.sqlite') });
  try {
    await fn(app);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The temperatures backfilled for Berlin after one served answer. */
async function backfilledTemperatures(app: TestApp): Promise<[number, number][]> {
  assert.equal((await app.get('/api/v1/cities/berlin/weather')).status, 200);
  await app.history?.settled();
  const res = await app.get('/api/v1/cities/berlin/weather/history?from=2025-09-01&to=2025-09-30');
  assert.equal(res.status, 200);
  return (at(res.json, 'data') as Rows).filter((r) => r.backfilled && r.field === 'temperature_c').map((r) => [Date.parse(r.as_of), r.value]);
}

test('recorded current_weather (Berlin-Tempelhof): the values, solar 10/30/60 and Potsdam as the fallback station for solar and sunshine', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    const r = await app.get('/api/v1/cities/berlin/weather');
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(str(r.json, 'data.observed_at'), '2025-09-18T15:30:00+02:00');
    assert.equal(num(r.json, 'data.temperature_c'), 19.7);
    assert.equal(num(r.json, 'data.relative_humidity_pct'), 78);
    assert.equal(num(r.json, 'data.dew_point_c'), 15.77);
    assert.equal(num(r.json, 'data.wind_speed_kmh'), 18.7, 'the 10-minute window first');
    assert.equal(num(r.json, 'data.wind_gust_speed_kmh'), 33.1);
    assert.equal(num(r.json, 'data.solar_kwh_m2_10min'), 0.024);
    assert.equal(num(r.json, 'data.solar_kwh_m2_30min'), 0.081);
    assert.equal(num(r.json, 'data.solar_kwh_m2_60min'), 0.168);
    assert.equal(num(r.json, 'data.sunshine_min_60'), 0);
    assert.equal(str(r.json, 'data.icon'), 'cloudy');
    assert.deepEqual(
      [at(r.json, 'data.station.dwd_station_id'), at(r.json, 'data.station.name'), at(r.json, 'data.station.distance_km')],
      ['00433', 'Berlin-Tempelhof', 5.8],
    );
    const fallbacks = at(r.json, 'data.fallback_stations') as Record<string, { dwd_station_id: string; name: string; distance_km: number }>;
    assert.deepEqual(Object.keys(fallbacks).sort(), ['solar_10', 'solar_30', 'solar_60', 'sunshine_30', 'sunshine_60']);
    for (const f of Object.values(fallbacks)) assert.deepEqual(f, { ...f, dwd_station_id: '03987', name: 'Potsdam', distance_km: 27.9 });
  } finally {
    await app.close();
  }
});

test('recorded /weather (7 days, Berlin): the backfill takes the 14 observed hours before the served value, with their values', async () => {
  await withHistory(async (app) => {
    const got = await backfilledTemperatures(app);
    const observed = hours(SEVEN_DAYS).filter((h) => h.source_id === 6150);
    assert.equal(observed.length, 14);
    assert.deepEqual(
      got,
      observed.map((h) => [Date.parse(h.timestamp), h.temperature]),
    );
    assert.deepEqual(got[0], [Date.parse('2025-09-18T00:00:00+00:00'), 14.6]);
  });
});

test('records switching source_id to a MOSMIX forecast mid-list are never backfilled as past weather, even before the served hour', async () => {
  // current_weather as if observed a day later: the recorded 7-day list then has forecast hours before it.
  const current = JSON.parse(fixture(CURRENT).toString()) as { weather: { timestamp: string } };
  current.weather.timestamp = '2025-09-19T13:30:00+00:00';
  fake.get('/current_weather', { json: current });
  await withHistory(async (app) => {
    const got = await backfilledTemperatures(app);
    const observed = hours(SEVEN_DAYS).filter((h) => h.source_id === 6150);
    assert.ok(hours(SEVEN_DAYS).some((h) => h.source_id === 2382 && Date.parse(h.timestamp) < Date.parse(current.weather.timestamp)));
    assert.deepEqual(
      got,
      observed.map((h) => [Date.parse(h.timestamp), h.temperature]),
      'only the observation station 6150',
    );
  });
});

test('the recorded 24-hour forecast (no fallback_source_ids key, relative_humidity null everywhere) backfills nothing and fails nothing', async () => {
  const current = JSON.parse(fixture(CURRENT).toString()) as { weather: { timestamp: string } };
  current.weather.timestamp = '2025-09-19T13:30:00+00:00';
  fake.get('/current_weather', { json: current });
  fake.get('/weather', { file: FORECAST_24H });
  await withHistory(async (app) => {
    assert.deepEqual(await backfilledTemperatures(app), []);
    assert.equal(at((await app.get('/api/v1/cities/berlin/weather')).json, 'meta.source_status'), 'ok');
  });
});
