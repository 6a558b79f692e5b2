import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerZensus } from './fixtures/zensus/routes.ts';
import { heatingStatisticsQuery, parseHeatingStatistics } from '../src/sources/zensus/district-heating.ts';
import { nth } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

const json = (f: string) => JSON.parse(fixture(f).toString());
const PATH = '/jUpNdisbWqRpMo35/arcgis/rest/services/Zensus2022_grid_final/FeatureServer/0/query';

const ctx = useFakeApp(registerZensus);
const { fake } = ctx;

async function getFresh(path: string) {
  const app = await startApp(fakeEnv(fake.url));
  try {
    return await app.get(path);
  } finally {
    await app.close();
  }
}

test('parser: summed buildings to district heat shares; empty sums are null; Esri error throws', () => {
  const d = parseHeatingStatistics(json('zensus/featureserver0-query_outStatistics_heating_koeln.json'))!;
  assert.equal(d.census_year, 2022);
  assert.equal(d.reference_date, '2022-05-15');
  assert.equal(d.buildings_by_energy_carrier, 148212);
  assert.equal(d.buildings_district_heat, 10871);
  assert.equal(d.district_heat_share_pct, 7.3);
  assert.equal(d.district_heating_type_share_pct, 7.7);
  assert.equal(parseHeatingStatistics(json('zensus/featureserver0-query_outStatistics_heating_empty.json')), null);
  assert.throws(() => parseHeatingStatistics(json('zensus/featureserver0-query_error-400.json')), /Zensus grid query failed/);
  assert.throws(() => parseHeatingStatistics({} as never), /Zensus heating statistics \$\.features: expected array, received undefined/);
  const q = heatingStatisticsQuery('05315000');
  assert.equal(q.where, "ags='05315000'");
  assert.deepEqual(
    JSON.parse(q.outStatistics).map((s: { onStatisticField: string }) => s.onStatisticField),
    ['Insgesamt_Energietraeger', 'Fernwaerme', 'Insgesamt_Heizungsart', 'Fernheizung'],
  );
});

test('GET district-heating: one statistics query by AGS, shares with the census year', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/district-heating');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.district_heat_share_pct'), 7.3);
  assert.equal(at(r.json, 'data.census_year'), 2022);
  assert.equal(fake.count(PATH), 1);
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.equal(q.get('where'), "ags='05315000'");
  assert.match(str(r.json, 'attribution.text'), /Statistische Ämter/);
});

test('district-heating: a kreisangehörige city is summed over its own cells only (its AGS), no cells is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/hannover/district-heating');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(new URL(nth(fake.requests, 0).url, 'http://x').searchParams.get('where'), "ags='03241001'");
});

test('district-heating: malformed answer (Esri error in a 200, HTML) is a 503 problem', async () => {
  fake.get(PATH, { file: 'zensus/featureserver0-query_error-400.json' });
  assert.equal((await getFresh('/api/v1/cities/koeln/district-heating')).status, 503);
  fake.get(PATH, { body: '<html>busy</html>', headers: { 'content-type': 'text/html' } });
  const r = await getFresh('/api/v1/cities/koeln/district-heating');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
});

test('district-heating: 404 unknown city, 503 dead upstream, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/district-heating');
  await expectUnavailable({ fake, path: '/api/v1/cities/essen/district-heating' });
  await expectDisabled({ fake, env: { ZENSUS_GRID_ENABLED: 'false' }, path: '/api/v1/cities/koeln/district-heating' });
});
