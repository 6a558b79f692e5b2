import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerSmard } from './fixtures/smard/routes.ts';
import { latestWindow, parseBlock, parseIndex } from '../src/sources/smard/chart-data.ts';
import { controlAreaOf } from '../src/sources/smard/adapters.ts';
import { nth } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

const json = (f: string) => JSON.parse(fixture(f).toString());
const CUR = 1794783600000;
const PREV = 1794178800000;

const ctx = useFakeApp(registerSmard);
const { fake } = ctx;

async function getFresh(path: string) {
  const app = await startApp(fakeEnv(fake.url));
  try {
    return await app.get(path);
  } finally {
    await app.close();
  }
}

test('parser: index block starts, series with trailing nulls, zoned window', () => {
  assert.deepEqual(parseIndex(json('smard/410_DE_index_hour.json')).slice(-2), [PREV, CUR]);
  const cur = parseBlock(json(`smard/410_DE_hour_${CUR}.json`));
  assert.equal(cur.length, 168);
  assert.equal(nth(cur, 5)[1], null);
  const w = latestWindow(cur, 'hour');
  assert.equal(w.latest?.start, '2026-11-16T04:00:00+01:00');
  assert.equal(w.latest?.end, '2026-11-16T05:00:00+01:00');
  assert.equal(w.latest?.value, nth(cur, 4)[1]);
  assert.equal(w.last24h.length, 5);
  // with the previous block the window holds 24 hourly slots, the oldest 23 h before the latest
  const both = latestWindow([...parseBlock(json(`smard/410_DE_hour_${PREV}.json`)), ...cur], 'hour');
  assert.equal(both.last24h.length, 24);
  assert.equal(nth(both.last24h, 0).start, '2026-11-15T05:00:00+01:00');
  assert.deepEqual(latestWindow([[CUR, null]], 'hour'), { latest: null, last24h: [] });
  assert.throws(() => parseIndex({}), /SMARD index \$\.timestamps: expected array/);
  assert.throws(() => parseBlock({ meta_data: {} }), /SMARD block \$\.series: expected array/);
});

test('recorded SMARD blocks: grid load with 146 future slots as [ts, null] (2026-10-05), negative day-ahead prices of region DE (2024-06-10)', async () => {
  const load = (await (await fetch(`${fake.url}/app/chart_data/410/DE/410_DE_hour_1791151200000.json`)).json()) as unknown;
  const points = parseBlock(load);
  assert.equal(points.length, 168);
  assert.equal(points.filter((p) => p[1] !== null).length, 22);
  const w = latestWindow(points, 'hour');
  assert.deepEqual(
    w.latest,
    { start: '2026-10-05T21:00:00+02:00', end: '2026-10-05T22:00:00+02:00', value: 54944.44 },
    'the last non-null point, not the last point',
  );
  assert.equal(w.last24h.length, 22);
  assert.deepEqual(nth(w.last24h, 0), { start: '2026-10-05T00:00:00+02:00', end: '2026-10-05T01:00:00+02:00', value: 43883.34 });
  const price = parseBlock(await (await fetch(`${fake.url}/app/chart_data/4169/DE/4169_DE_hour_1717970400000.json`)).json());
  assert.equal(price.length, 168);
  assert.equal(Math.min(...price.map((p) => p[1] ?? Infinity)), -80.01, 'a negative price is a value, not a gap');
  assert.ok(price.every((p) => p[1] !== null));
  assert.deepEqual(latestWindow(price, 'hour').latest, { start: '2024-06-16T23:00:00+02:00', end: '2024-06-17T00:00:00+02:00', value: 94.44 });
});

test('control areas only for states wholly inside one', () => {
  assert.equal(controlAreaOf('BE'), '50Hertz');
  assert.equal(controlAreaOf('RP'), 'Amprion');
  assert.equal(controlAreaOf('NW'), null);
});

test('GET power-load: national and control area, 24 h reaching into the previous block', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/power-load');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = at(r.json, 'data');
  assert.equal(at(d, 'national.region'), 'DE');
  assert.equal(at(d, 'national.resolution'), 'hour');
  assert.equal(at(d, 'national.latest.start'), '2026-11-16T04:00:00+01:00');
  assert.equal(at(d, 'national.latest.load_mwh'), json(`smard/410_DE_hour_${CUR}.json`).series[4][1]);
  assert.equal(at(d, 'national.last_24h.length'), 24);
  assert.equal(at(d, 'control_area.region'), '50Hertz');
  assert.equal(at(d, 'control_area.latest.load_mwh'), json(`smard/410_50Hertz_hour_${CUR}.json`).series[4][1]);
  assert.match(str(d, 'control_area_note'), /50Hertz/);
  assert.equal(fake.count(`/app/chart_data/410/DE/410_DE_hour_${PREV}.json`), 1);
  assert.equal(at(r.json, 'meta.as_of'), '2026-11-16T04:00:00+01:00');
  assert.match(str(r.json, 'attribution.text'), /SMARD/);
});

test('power-load: a city in a split state gets no control area and says why', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/power-load');
  assert.equal(at(r.json, 'data.control_area'), null);
  assert.match(str(r.json, 'data.control_area_note'), /split/);
  assert.equal(fake.count('/app/chart_data/410/Amprion'), 0);
});

test('power-load: a control-area series SMARD cannot serve drops only that part', async () => {
  // The fixtures hold no TenneT files: the fake answers 404 like SMARD for an unknown file.
  const r = await ctx.app.get('/api/v1/cities/kiel/power-load');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.control_area'), null);
  assert.match(str(r.json, 'data.control_area_note'), /TenneT series could not be read \(status\)/);
  assert.equal(at(r.json, 'data.national.region'), 'DE');
});

test('GET power-price: latest quarter hour of DE-LU, 96 slots of 24 h; bad resolution is 422', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/power-price');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const z = at(r.json, 'data.bidding_zone');
  assert.equal(at(z, 'region'), 'DE-LU');
  assert.equal(at(z, 'resolution'), 'quarterhour');
  assert.equal(at(z, 'latest.start'), '2026-11-17T23:45:00+01:00');
  assert.equal(at(z, 'latest.end'), '2026-11-18T00:00:00+01:00');
  assert.equal(at(z, 'latest.price_eur_mwh'), json(`smard/4169_DE-LU_quarterhour_${CUR}.json`).series[191][1]);
  assert.equal(at(z, 'last_24h.length'), 96);
  assert.equal((await ctx.app.get('/api/v1/cities/berlin/power-price?resolution=minute')).status, 422);
});

test('power-price: a block with nothing published yet is no_data', async () => {
  const empty = { meta_data: { version: 1, created: CUR }, series: [[CUR, null]] };
  fake.get(/^\/app\/chart_data\/4169\/DE-LU\/4169_/, { json: empty });
  const r = await getFresh('/api/v1/cities/hamburg/power-price');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
});

test('power-load: malformed index is a 503 problem', async () => {
  fake.get('/app/chart_data/410/DE/index_hour.json', { body: '<html>Wartung</html>', headers: { 'content-type': 'text/html' } });
  const r = await getFresh('/api/v1/cities/berlin/power-load');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
});

test('power types: 404 unknown city, 503 dead upstream, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/power-load');
  await expectUnavailable({ fake, path: ['/api/v1/cities/berlin/power-load', '/api/v1/cities/berlin/power-price'] });
  await expectDisabled({ fake, env: { SMARD_ENABLED: 'false' }, path: ['/api/v1/cities/berlin/power-load', '/api/v1/cities/berlin/power-price'] });
});
