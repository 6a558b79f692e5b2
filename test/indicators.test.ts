import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerWegweiser } from './fixtures/wegweiser/routes.ts';
import { parseStatistics, regionByAgs } from '../src/sources/wegweiser/statistics.ts';
import { nth } from './helpers/must.ts';
import { at, list } from './helpers/json.ts';

const ctx = useFakeApp(registerWegweiser);
const { fake } = ctx;

const json = (f: string) => JSON.parse(fixture(f).toString());

test('parser: region matched by gkz (AGS), not by name', () => {
  const list = json('wegweiser/region-list_search-koeln.json');
  assert.equal(regionByAgs(list, '05315000')?.friendlyUrl, 'koeln');
  assert.equal(regionByAgs(list, '05315001'), null);
  assert.throws(() => regionByAgs({ error: 'x' }, '05315000'));
});

test('parser: latest non-null year per indicator, unit, series', () => {
  const d = parseStatistics(json('wegweiser/statistics-data_topics_koeln.json'));
  const byId = Object.fromEntries(d.indicators.map((i) => [i.id, i]));
  assert.deepEqual([byId.bevoelkerung.year, byId.bevoelkerung.value, byId.bevoelkerung.unit], [2023, 1087353, 'Anzahl']);
  assert.deepEqual([byId.geburten.year, byId.geburten.value], [2022, 9.6]);
  assert.equal(byId.kinderarmut.value, null);
  assert.equal(byId.kinderarmut.year, null);
  assert.equal(d.indicator_count, 3);
  assert.equal(d.region?.ags, '05315000');
  assert.equal(byId.bevoelkerung.series.length, 5);
});

test('GET indicators: ok, upstream addressed by friendlyUrl with the documented topics', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/indicators');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'attribution.text'), 'Bertelsmann Stiftung / wegweiser-kommune.de');
  assert.equal(at(r.json, 'data.region.name'), 'Köln');
  const call = fake.requests.find((q) => q.url.includes('/statistics/data/'));
  assert.ok(call?.url.endsWith('/statistics/data/demografische-entwicklung+soziale-lage+beschaeftigung-arbeitsmarkt+koeln'));
  assert.equal(new URL(nth(fake.requests, 0).url, 'http://x').searchParams.get('search'), 'Köln');
});

test('indicators: city without a Wegweiser region (gkz) is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/bonn/indicators');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
});

test('indicators: upstream 404 for the region is no_data', async () => {
  fake.get('/data-api/rest/region/list', { json: [{ friendlyUrl: 'kiel', name: 'Kiel', ars: '010020000000', gkz: '01002000', type: 'KREISFREIE_STADT' }] });
  fake.get(/\/statistics\/data\//, { status: 404, body: '' });
  const r = await ctx.app.get('/api/v1/cities/kiel/indicators');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
});

test('indicators: unknown city is 404', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/indicators');
});

test('indicators: dead upstream and nothing cached is 503', async () => {
  await expectUnavailable({ fake, path: '/api/v1/cities/dresden/indicators' });
});

test('indicators: toggle off is disabled without upstream call', async () => {
  await expectDisabled({ fake, env: { WEGWEISER_ENABLED: 'false' }, path: '/api/v1/cities/koeln/indicators', upstreamPrefix: '/data-api' });
});

test('compare indicators delegates per city', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=indicators&cities=koeln,atlantis');
  assert.equal(r.status, 200);
  const byCity = Object.fromEntries(list<{ city: string }>(r.json, 'data').map((i: { city: string }) => [i.city, i]));
  assert.equal(at(byCity, 'koeln.source_status'), 'ok');
  assert.equal(at(byCity, 'atlantis.source_status'), 'not_found');
});
