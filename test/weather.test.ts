import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { parseCurrentWeather } from '../src/sources/brightsky/current-weather.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { nth } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

const ctx = useFakeApp(registerBrightSky);
const { fake } = ctx;

test('parser: Bright Sky current_weather fields, station and zoned time', () => {
  const d = parseCurrentWeather(JSON.parse(fixture('brightsky/current_weather-feldberg-2022-07-24.json').toString()));
  assert.equal(d.temperature_c, 32.1);
  assert.equal(d.relative_humidity_pct, 33);
  assert.equal(d.dew_point_c, 13.85);
  assert.equal(d.pressure_msl_hpa, 1014.5);
  assert.equal(d.wind_speed_kmh, 6.1);
  assert.equal(d.wind_direction_deg, 10);
  assert.equal(d.wind_gust_speed_kmh, 10.1);
  assert.equal(d.cloud_cover_pct, 50);
  assert.equal(d.condition, 'dry');
  assert.equal(d.icon, 'partly-cloudy-day');
  // 15:30 UTC in July is 17:30 CEST
  assert.equal(d.observed_at, '2022-07-24T17:30:00+02:00');
  assert.equal(d.station?.dwd_station_id, '01346');
  assert.equal(d.station?.name, 'Feldberg/Schwarzwald');
  assert.equal(d.station?.distance_km, 0.1);
  assert.equal(d.fallback_stations?.temperature?.dwd_station_id, '01443');
});

test('GET weather: envelope, upstream query by register coordinates, DWD modification notice', async () => {
  const r = await ctx.app.get('/api/v1/cities/freiburg/weather');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.city'), 'freiburg-im-breisgau');
  assert.equal(at(r.json, 'data.temperature_c'), 32.1);
  assert.equal(at(r.json, 'attribution.modified'), true);
  assert.match(str(r.json, 'attribution.text'), /Deutscher Wetterdienst/);
  assert.match(str(r.json, 'attribution.modification_notice'), /\w/);
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.ok(Math.abs(Number(q.get('lat')) - 47.99) < 0.1);
  assert.match(String(nth(fake.requests, 0).headers['user-agent']), /Stadtdaten\/1\.0\.0 \(\+https?:\/\//);
});

test('weather: no station within reach (404 detail) is no_data, not an error', async () => {
  fake.get('/current_weather', { status: 404, json: { detail: 'No sources match your criteria' } });
  const r = await ctx.app.get('/api/v1/cities/kiel/weather');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
});
