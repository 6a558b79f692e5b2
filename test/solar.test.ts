import { at, obj, str } from './helpers/json.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture, type FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled } from './helpers/status-rules.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { register as registerPvgis } from './fixtures/pvgis/routes.ts';
import { parsePvcalc } from '../src/sources/pvgis/parse.ts';

const register = (fake: FakeUpstream) => {
  registerBrightSky(fake);
  registerPvgis(fake);
};
const ctx = useFakeApp(register);
const { fake } = ctx;
const PVCALC = '/api/v5_3/PVcalc';

test('parser: the real PVcalc answer (50 kWp) normalised per kWp; l_spec as a string does not break it', () => {
  const y = parsePvcalc(JSON.parse(fixture('pvgis/PVcalc_v5_2_lat37_lon38_peakpower50_loss0_angle35.json').toString()));
  assert.equal(y.annual_kwh_per_kwp, 1808.4);
  assert.equal(y.annual_irradiation_kwh_m2, 2096.34);
  assert.equal(y.year_to_year_sd_kwh_per_kwp, 52.86);
  assert.equal(y.total_loss_pct, -13.74);
  assert.equal(y.slope_deg, 35);
  assert.equal(y.angles_optimised, false);
  assert.equal(y.radiation_db, 'PVGIS-SARAH2');
  assert.equal(y.year_max, 2020);
  assert.equal(y.monthly.length, 12);
  assert.deepEqual(y.monthly[0], { month: 1, kwh_per_kwp: 104.56, irradiation_kwh_m2: 108.91 });
});

test('GET solar: PVGIS yield per kWp with the pinned version; no radiation in the observation is null with a reason', async () => {
  const r = await ctx.app.get('/api/v1/cities/freiburg-im-breisgau/solar');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = obj(r.json, 'data');
  assert.equal(at(d, 'pv_yield.annual_kwh_per_kwp'), 1208.4);
  assert.equal(at(d, 'pv_yield.api_version'), 'v5_3');
  assert.equal(at(d, 'pv_yield.peak_power_kwp'), 1);
  assert.match(str(d, 'pv_yield.attribution'), /PVGIS/);
  // The recorded Bright Sky answer predates solar_10/30/60.
  assert.equal(at(d, 'irradiance'), null);
  assert.match(str(r.json, 'meta.irradiance_reason'), /solar radiation/);
  assert.match(str(r.json, 'attribution.text'), /PVGIS/);
  const q = new URL(fake.requests.find((x) => x.url.startsWith(PVCALC))!.url, 'http://x').searchParams;
  assert.deepEqual([q.get('peakpower'), q.get('loss'), q.get('optimalangles'), q.get('outputformat')], ['1', '14', '1', 'json']);
});

test('solar: live irradiance from the weather type, W/m² with the stated factor and its own DWD attribution', async () => {
  // A current Bright Sky answer carries solar_10/30/60 (kWh/m²); added here to the recorded body.
  const body = JSON.parse(fixture('brightsky/current_weather-feldberg-2022-07-24.json').toString()) as { weather: Record<string, unknown> };
  Object.assign(body.weather, { solar_10: 0.118, solar_30: 0.342, solar_60: 0.66 });
  fake.get('/current_weather', { json: body });
  const fresh = await startApp(fakeEnv(fake.url));
  try {
    const r = await fresh.get('/api/v1/cities/freiburg-im-breisgau/solar');
    const irr = obj(r.json, 'data.irradiance');
    assert.equal(at(irr, 'global_w_m2'), 708);
    assert.equal(at(irr, 'window_minutes'), 10);
    assert.equal(at(irr, 'energy_kwh_m2'), 0.118);
    assert.equal(at(irr, 'station'), 'Feldberg/Schwarzwald');
    assert.equal(at(irr, 'observed_at'), '2022-07-24T17:30:00+02:00');
    assert.match(str(irr, 'attribution'), /Deutscher Wetterdienst/);
    assert.equal(at(r.json, 'meta.as_of'), '2022-07-24T17:30:00+02:00');
  } finally {
    await fresh.close();
  }
});

test('solar: the weather source down leaves the yield (irradiance null); PVGIS down is a 503 problem', async () => {
  fake.get('/current_weather', { status: 500, body: 'down' });
  const fresh = await startApp(fakeEnv(fake.url));
  try {
    const r = await fresh.get('/api/v1/cities/freiburg-im-breisgau/solar');
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(at(r.json, 'data.irradiance'), null);
    register(fake);
    fake.get(PVCALC, { status: 503, body: 'maintenance' });
    const other = await startApp(fakeEnv(fake.url));
    try {
      const down = await other.get('/api/v1/cities/freiburg-im-breisgau/solar');
      assert.equal(down.status, 503);
      assert.equal(at(down.json, 'code'), 'upstream_unavailable');
    } finally {
      await other.close();
    }
  } finally {
    await fresh.close();
  }
});

test('solar: a point PVGIS refuses (400 with its JSON message) is no_data with the reason, not an unreachable upstream', async () => {
  fake.get(PVCALC, { status: 400, json: { message: 'Location over the sea. Please, select another location', status: 400 } });
  const r = await ctx.freshGet('/api/v1/cities/hamburg/solar');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /PVGIS computes no yield/);
  assert.equal(at(r.json, 'data'), null);
});

test('solar: a malformed PVGIS body is a 503 problem, never a 500', async () => {
  for (const reply of [{ body: '<html>' }, { json: { outputs: {} } }, { json: { outputs: { totals: { fixed: { E_y: 1 } } }, inputs: {} } }]) {
    register(fake);
    fake.get(PVCALC, reply);
    const fresh = await startApp(fakeEnv(fake.url));
    try {
      const r = await fresh.get('/api/v1/cities/freiburg-im-breisgau/solar');
      assert.equal(r.status, 503);
    } finally {
      await fresh.close();
    }
  }
});

test('solar: PVGIS_ENABLED=false is disabled without a PVGIS call', async () => {
  await expectDisabled({ fake, env: { PVGIS_ENABLED: 'false' }, path: '/api/v1/cities/freiburg-im-breisgau/solar', upstreamPrefix: PVCALC });
});
