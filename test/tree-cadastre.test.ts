import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { fixture } from './helpers/fake-upstream.ts';
import { type TestResponse } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at } from './helpers/json.ts';
import { nth } from './helpers/must.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { register as registerTreeWfs } from './fixtures/tree-wfs/routes.ts';
import { TREE_WFS_BY_SLUG } from '../src/sources/tree-wfs/cities.ts';
import { parseHits, parseTreePage, type WfsGeoJson } from '../src/sources/tree-wfs/parse.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { TreeCadastreRecord } from '../src/core/records/places.ts';
import { published } from '../src/core/schema.ts';

const json = (name: string): WfsGeoJson => JSON.parse(fixture(`tree-wfs/${name}`).toString('utf8')) as WfsGeoJson;
const ctx = useFakeApp(registerTreeWfs);
const { fake } = ctx;
const now = new Date('2026-11-24T12:00:00+01:00');

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path);

test('parser: Berlin (GeoServer): species, genus, planting year, height, street, district, lon/lat; numberMatched total', () => {
  const page = parseTreePage(json('berlin_strassenbaeume_GetFeature.json'), TREE_WFS_BY_SLUG.get('berlin')!, now);
  assert.equal(page.total, 945907);
  assert.deepEqual(page.trees[0], {
    id: 'strassenbaeume.11893',
    species_de: 'Winter-Linde',
    species_botanical: 'Tilia cordata',
    genus_de: 'LINDE',
    planting_year: 1985,
    height_m: 16,
    crown_diameter_m: null,
    street: 'Unter den Linden',
    district: 'Mitte',
    lat: 52.5169,
    lon: 13.3889,
  });
  const third = nth(page.trees, 2);
  assert.deepEqual([third.planting_year, third.height_m], [null, null]);
});

test('parser: Hamburg (deegree) MultiPoint in lat/lon order is read the right way round; Kiel decimal comma; hits count', () => {
  const hh = parseTreePage(json('hamburg_strassenbaumkataster_GetFeature.geojson'), TREE_WFS_BY_SLUG.get('hamburg')!, now);
  const oak = nth(hh.trees, 0);
  assert.deepEqual([oak.lat, oak.lon, oak.species_botanical, oak.crown_diameter_m, oak.district], [53.5665, 9.9867, 'Quercus robur', 14, 'Rotherbaum']);
  const kiel = parseTreePage(json('kiel_Baeume_GetFeature.geojson'), TREE_WFS_BY_SLUG.get('kiel')!, now);
  assert.equal(kiel.total, null, 'ArcGIS GeoJSON has no numberMatched');
  assert.equal(nth(kiel.trees, 1).crown_diameter_m, 6.5);
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(fixture('tree-wfs/kiel_Baeume_hits.xml').toString('utf8')) as Record<
    string,
    unknown
  >;
  assert.equal(parseHits(xml), 41736);
  assert.throws(() => parseTreePage({ type: 'ExceptionReport' }, TREE_WFS_BY_SLUG.get('berlin')!, now), UpstreamError);
});

test('GET tree-cadastre for Berlin: a page of trees with the full count, licence and next start index', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/tree-cadastre');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.ok(published(TreeCadastreRecord()).safeParse(at(r.json, 'data')).success);
  assert.deepEqual(
    [at(r.json, 'data.total'), at(r.json, 'data.sample_size'), at(r.json, 'data.start_index'), at(r.json, 'data.license')],
    [945907, 3, 0, 'dl-de/zero-2-0'],
  );
  assert.equal(at(r.json, 'meta.next_start_index'), 3);
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.deepEqual([q.get('typeNames'), q.get('count'), q.get('startIndex'), q.get('srsName')], ['baumbestand:strassenbaeume', '500', '0', 'EPSG:4326']);
  const next = await ctx.app.get('/api/v1/cities/berlin/tree-cadastre?start_index=500');
  assert.equal(new URL(nth(fake.requests, 1).url, 'http://x').searchParams.get('startIndex'), '500');
  assert.equal(at(next.json, 'data.start_index'), 500);
  const bad = await ctx.app.get('/api/v1/cities/berlin/tree-cadastre?start_index=-1');
  assert.equal(bad.status, 422);
});

test('GET tree-cadastre for Kiel: the total comes from a resultType=hits request', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/tree-cadastre');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.total'), 41736);
  assert.equal(at(r.json, 'data.license'), 'CC-BY-4.0');
  assert.equal(fake.count('/geodatenextern'), 2);
});

test('GET tree-cadastre: past the end is no_data; other cities are not_covered', async () => {
  const end = await ctx.app.get('/api/v1/cities/berlin/tree-cadastre?start_index=946000');
  assert.equal(at(end.json, 'meta.source_status'), 'no_data');
  assert.equal(at(end.json, 'meta.total'), 945907);
  const other = await ctx.app.get('/api/v1/cities/koeln/tree-cadastre');
  assert.equal(at(other.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(other.json, 'meta.covered_cities'), ['berlin', 'hamburg', 'kiel']);
});

test('GET tree-cadastre: a WFS exception report or a dead service with nothing cached is a 503 problem', async () => {
  fake.get('/services/wfs/baumbestand', {
    body: '<ows:ExceptionReport><ows:Exception exceptionCode="NoApplicableCode"/></ows:ExceptionReport>',
    headers: { 'content-type': 'application/xml' },
  });
  const r = await freshGet('/api/v1/cities/berlin/tree-cadastre');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  await expectUnavailable({ fake, path: '/api/v1/cities/hamburg/tree-cadastre' });
});

test('GET tree-cadastre: toggle off is disabled', async () => {
  await expectDisabled({ fake, env: { TREE_WFS_ENABLED: 'false' }, path: '/api/v1/cities/berlin/tree-cadastre' });
});
