import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerZensus } from './fixtures/zensus/routes.ts';
import { gridStatisticsQuery, parseGridStatistics } from '../src/sources/zensus/grid-stats.ts';
import { nth } from './helpers/must.ts';
import { at } from './helpers/json.ts';

const ctx = useFakeApp(registerZensus);
const { fake } = ctx;

const json = (f: string) => JSON.parse(fixture(f).toString());
const PATH = '/jUpNdisbWqRpMo35/arcgis/rest/services/Zensus2022_grid_final/FeatureServer/0/query';

test('parser: Esri outStatistics answer to density over GV area and populated area', () => {
  const d = parseGridStatistics(json('zensus/featureserver0-query_outStatistics_koeln.json'), 405.02)!;
  assert.equal(d.population_census, 1017051);
  assert.equal(d.reference_date, '2022-05-15');
  assert.equal(d.density_per_km2, 2511.1);
  assert.equal(d.populated_area_km2, 174.63);
  assert.equal(parseGridStatistics(json('zensus/featureserver0-query_outStatistics_empty.json'), 100), null);
  assert.throws(() => parseGridStatistics(json('zensus/featureserver0-query_error-400.json'), 100));
});

test('parser: the recorded grid sample carries the 8-digit AGS in `ags` and Einwohner per cell', () => {
  const s = json('zensus/featureserver0-query_radius600m_muenchen_TRUNCATED-3-of-118.json');
  assert.ok(s.fields.some((f: { name: string }) => f.name === 'ags') && s.fields.some((f: { name: string }) => f.name === 'Einwohner'));
  assert.equal(s.objectIdFieldName, 'OBJECTID');
  assert.equal(s.features[0].attributes.ags, '09162000');
  assert.equal(gridStatisticsQuery('09162000').where, "ags='09162000'");
});

test('GET population-density: ok with the AGS in the where clause', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/population-density');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.area_km2'), 405.02);
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.equal(q.get('where'), "ags='05315000'");
  assert.equal(q.get('f'), 'json');
  assert.match(q.get('outStatistics')!, /"onStatisticField":"Einwohner"/);
});

test('population-density: no populated cell is no_data; Esri error in a 200 is 503', async () => {
  fake.get(PATH, { file: 'zensus/featureserver0-query_outStatistics_empty.json' });
  assert.equal(at((await ctx.app.get('/api/v1/cities/bonn/population-density')).json, 'meta.source_status'), 'no_data');
  fake.get(PATH, { file: 'zensus/featureserver0-query_error-400.json' });
  assert.equal((await ctx.app.get('/api/v1/cities/kiel/population-density')).status, 503);
});

test('population-density: 404 unknown city, 503 dead upstream, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/population-density');
  await expectUnavailable({ fake, path: '/api/v1/cities/essen/population-density' });
  await expectDisabled({ fake, env: { ZENSUS_GRID_ENABLED: 'false' }, path: '/api/v1/cities/koeln/population-density' });
});
