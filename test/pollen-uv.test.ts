import { at, list, obj, str } from './helpers/json.ts';
import { must, nth } from './helpers/must.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { register as registerDwdHealth, UVI_RECORDED } from './fixtures/dwd-health/routes.ts';
import { checkPollenFile, parsePollen } from '../src/sources/dwd-health/pollen.ts';
import { checkUvFile, parseUv } from '../src/sources/dwd-health/uv.ts';
import { POLLEN_AREA_BY_CITY } from '../src/sources/dwd-health/partregions.ts';
import { CITIES } from '../src/cities/register.ts';

const ctx = useFakeApp(registerDwdHealth);
const { fake } = ctx;
const BASE = '/climate_environment/health/alerts';
const POLLEN = 'dwd-health/s31fg-2026-06-28-two-partregions.json';
const pollenJson = () => JSON.parse(fixture(POLLEN).toString()) as unknown;
const pollenBody = () => checkPollenFile(pollenJson());
const uvBody = () => checkUvFile(JSON.parse(fixture('dwd-health/uvi-constructed.json').toString()));

test('partregion map: every register city has a DWD pollen area', () => {
  const valid = new Set([11, 12, 31, 32, 41, 42, 43, 61, 62, 71, 72, 81, 82, 91, 92, 101, 102, 103, 111, 112, 113, 121, 122, 123, 124]);
  for (const c of CITIES) {
    const a = POLLEN_AREA_BY_CITY[c.slug];
    assert.ok(a, c.slug);
    if (a.partregion_id === -1) assert.ok([20, 50].includes(a.region_id), c.slug);
    else {
      assert.ok(valid.has(a.partregion_id), c.slug);
      assert.equal(Math.floor(a.partregion_id / 10) * 10, a.region_id, c.slug);
    }
  }
  assert.equal(Object.keys(POLLEN_AREA_BY_CITY).length, CITIES.length);
});

test('parser: s31fg.json levels as DWD strings plus numbers, legend labels, zoned issue time', () => {
  const p = parsePollen(pollenBody(), 10, 12);
  assert.ok(p);
  assert.equal(p.region.partregion_name, 'Geest,Schleswig-Holstein und Hamburg');
  assert.equal(p.issued_at, '2026-06-28T11:00:00+02:00');
  assert.equal(p.next_update_at, '2026-06-29T11:00:00+02:00');
  assert.equal(p.issue_date, '2026-06-28');
  assert.deepEqual(
    p.types.map((t) => t.type),
    ['Hasel', 'Erle', 'Esche', 'Birke', 'Graeser', 'Roggen', 'Beifuss', 'Ambrosia'],
  );
  const grass = p.types.find((t) => t.type === 'Graeser')!;
  assert.deepEqual(grass.today, { level: '2-3', level_value: 2.5, label: 'mittlere bis hohe Belastung', reason: null });
  assert.equal(nth(p.types, 0).tomorrow.label, 'keine Belastung');
  assert.equal(parsePollen(pollenBody(), 40, 41), null);
});

test('parser: -1 is null with a reason; a region without parts is matched by region id', () => {
  const body = pollenBody();
  const area = structuredClone(nth(body.content, 0));
  Object.assign(area, { region_id: 50, region_name: 'Brandenburg und Berlin', partregion_id: -1, partregion_name: '' });
  must(area.Pollen.Ambrosia).dayafter_to = '-1';
  body.content.push(area);
  const p = parsePollen(body, 50, -1)!;
  assert.equal(p.region.partregion_id, null);
  assert.equal(p.region.partregion_name, null);
  const ambrosia = p.types.find((t) => t.type === 'Ambrosia')!;
  assert.equal(ambrosia.day_after_tomorrow.level, null);
  assert.equal(ambrosia.day_after_tomorrow.level_value, null);
  assert.match(ambrosia.day_after_tomorrow.reason!, /-1/);
});

test('parser: uvi.json own UV city by name, else the nearest lowland one (never a mountain station)', () => {
  const hh = parseUv(uvBody(), 'Hamburg', 53.5507, 9.997)!;
  assert.equal(hh.station, 'Hamburg');
  assert.equal(hh.own_station, true);
  assert.equal(hh.today_risk, 'low');
  const ffm = parseUv(uvBody(), 'Frankfurt am Main', 50.1109, 8.6824)!;
  assert.equal(ffm.station, 'Frankfurt/Main');
  assert.equal(ffm.own_station, true);
  assert.equal(ffm.day_after_tomorrow, 2);
  // Weinbiet (Pfälzerwald, 553 m) is the nearest UV station to Ludwigshafen but a summit.
  const lu = parseUv(uvBody(), 'Ludwigshafen am Rhein', 49.4832, 8.4479)!;
  assert.equal(lu.station, 'Frankfurt/Main');
  assert.equal(lu.own_station, false);
  assert.ok(lu.distance_km! > 50 && lu.distance_km! < 80, String(lu.distance_km));
  assert.equal(lu.issued_at, '2026-06-28T07:00:00+02:00');
});

test('the recorded uvi.json (2026-07-13): name UV-Gefahrenindex, forecast_day, naive local times; own city, else the nearest lowland one', async () => {
  const recorded = checkUvFile(JSON.parse(fixture(UVI_RECORDED).toString()));
  const berlin = must(parseUv(recorded, 'Berlin', 52.5177, 13.4055));
  assert.deepEqual(
    [berlin.station, berlin.own_station, berlin.today, berlin.tomorrow, berlin.day_after_tomorrow, berlin.today_risk, berlin.issued_at],
    ['Berlin', true, 5, 4, 5, 'moderate', '2026-07-13T07:30:00+02:00'],
  );
  // München is 60 km from the Zugspitze, a mountain station: the lowland Berlin answers, named with its distance.
  const muenchen = must(parseUv(recorded, 'München', 48.1371, 11.5754));
  assert.deepEqual([muenchen.station, muenchen.own_station], ['Berlin', false]);
  fake.get(`${BASE}/uvi.json`, { file: UVI_RECORDED });
  const r = await ctx.freshGet('/api/v1/cities/hamburg/pollen-uv');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(
    [
      at(r.json, 'data.uv.station'),
      at(r.json, 'data.uv.own_station'),
      at(r.json, 'data.uv.today'),
      at(r.json, 'data.uv.tomorrow'),
      at(r.json, 'data.uv.day_after_tomorrow'),
    ],
    ['List auf Sylt', false, 5, 5, 6],
  );
  assert.equal(at(r.json, 'data.uv.issued_at'), '2026-07-13T07:30:00+02:00');
});

test('GET pollen-uv: partregion forecast, own UV city, DWD attribution with modification notice', async () => {
  const r = await ctx.app.get('/api/v1/cities/hamburg/pollen-uv');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = obj(r.json, 'data');
  assert.equal(at(d, 'region.partregion_id'), 12);
  assert.equal(at(d, 'region.region_name'), 'Schleswig-Holstein und Hamburg');
  assert.equal(at(d, 'pollen_max_today'), 2.5);
  assert.equal(list<{ type: string; type_en: string }>(d, 'pollen').find((t) => t.type === 'Graeser')?.type_en, 'grasses');
  assert.equal(at(d, 'uv.station'), 'Hamburg');
  assert.equal(at(d, 'uv.distance_km'), 0.9);
  assert.equal(at(r.json, 'meta.as_of'), '2026-06-28T11:00:00+02:00');
  assert.equal(at(r.json, 'attribution.modified'), true);
  assert.match(str(r.json, 'attribution.text'), /Deutscher Wetterdienst/);
});

test('pollen-uv: a forecast issued before the current day is flagged stale, not shown as current', async () => {
  // The fixture was issued on 2026-06-28; the app's clock is later.
  const r = await ctx.app.get('/api/v1/cities/kiel/pollen-uv');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.pollen_stale'), true);
  assert.equal(at(r.json, 'data.pollen_today_date'), '2026-06-28');
  assert.match(str(r.json, 'meta.stale_reason'), /2026-06-28/);
});

test('pollen-uv: the national files are shared sub-resources, fetched once for several cities', async () => {
  await ctx.app.get('/api/v1/cities/luebeck/pollen-uv');
  await ctx.app.get('/api/v1/cities/koeln/pollen-uv');
  assert.equal(fake.count(`${BASE}/s31fg.json`), 0);
});

test('pollen-uv: a partregion the DWD file does not list is no_data with the reason', async () => {
  const r = await ctx.app.get('/api/v1/cities/muenchen/pollen-uv');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /partregion 121/);
});

test('pollen-uv: DWD_HEALTH_ENABLED=false is disabled without an upstream call', async () => {
  await expectDisabled({ fake, env: { DWD_HEALTH_ENABLED: 'false' }, path: '/api/v1/cities/hamburg/pollen-uv', upstreamPrefix: BASE });
});

test('pollen-uv: dead upstream with nothing cached is a 503 problem', async () => {
  await expectUnavailable({ fake, path: '/api/v1/cities/hamburg/pollen-uv' });
});

test('pollen-uv: a malformed upstream body is a 503 problem, never a 500', async () => {
  const fresh = await startApp(fakeEnv(fake.url));
  try {
    fake.get(`${BASE}/s31fg.json`, { body: '<html>Wartungsarbeiten</html>', headers: { 'content-type': 'text/html' } });
    const r = await fresh.get('/api/v1/cities/hamburg/pollen-uv');
    assert.equal(r.status, 503);
    assert.match(String(r.headers.get('content-type')), /^application\/problem\+json/);
    fake.get(`${BASE}/s31fg.json`, { json: { content: 'none' } });
    const again = await startApp(fakeEnv(fake.url));
    try {
      const r2 = await again.get('/api/v1/cities/hamburg/pollen-uv');
      assert.equal(r2.status, 503);
    } finally {
      await again.close();
    }
  } finally {
    await fresh.close();
  }
});

test('compare resource pollen-uv: pollen level and UV index per city', async () => {
  const r = await ctx.app.get('/api/v1/compare?cities=hamburg,muenchen&resource=pollen-uv');
  assert.equal(r.status, 200);
  const by = Object.fromEntries(list<{ city: string }>(r.json, 'data').map((i) => [i.city, i]));
  assert.deepEqual(at(by, 'hamburg.data'), {
    partregion: 'Geest,Schleswig-Holstein und Hamburg',
    pollen_max_today: 2.5,
    pollen_stale: true,
    uv_today: 0,
    uv_station: 'Hamburg',
  });
  assert.equal(at(by, 'muenchen.source_status'), 'no_data');
});

test('parser: DWD local times in both spellings; an unknown UV time format leaves the UV values', () => {
  const body = uvBody();
  body.last_update = '28.06.2026 07:00 Uhr';
  assert.equal(parseUv(body, 'Hamburg', 53.5507, 9.997)!.issued_at, '2026-06-28T07:00:00+02:00');
  body.last_update = 'heute früh';
  const hh = parseUv(body, 'Hamburg', 53.5507, 9.997)!;
  assert.equal(hh.issued_at, null);
  assert.equal(hh.today, 0);
  // The pollen file's own times date its forecast: an unreadable one is drift naming it.
  assert.throws(
    () => checkPollenFile({ ...(pollenJson() as object), last_update: 'gestern' }),
    /^FormatDriftError: DWD s31fg \$\.last_update: not a DWD time$/,
  );
});
