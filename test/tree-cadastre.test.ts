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

test('parser: Berlin (GeoServer), recorded page: planting year as a string, 0 m height and crown read as unmeasured; numberMatched total', () => {
  const page = parseTreePage(json('berlin_strassenbaeume_GetFeature_2026-10-02.json'), TREE_WFS_BY_SLUG.get('berlin')!, now);
  assert.equal(page.total, 434765);
  assert.deepEqual(page.trees[0], {
    id: 'strassenbaeume.00008100_000bbafb',
    species_de: 'Pyramiden-Hainbuche',
    species_botanical: "Carpinus betulus 'Fastigiata'",
    genus_de: 'Hainbuche',
    planting_year: 1975,
    height_m: 15,
    crown_diameter_m: null,
    street: 'Fritz-Reuter-Allee',
    district: 'Neukölln',
    lat: 52.44315194,
    lon: 13.44828415,
  });
  const maple = nth(page.trees, 1);
  assert.deepEqual([maple.species_de, maple.height_m, maple.crown_diameter_m], ['Berg-Ahorn, Weiss-Ahorn', null, null]);
  const built = parseTreePage(json('berlin_strassenbaeume_GetFeature.json'), TREE_WFS_BY_SLUG.get('berlin')!, now);
  assert.deepEqual([nth(built.trees, 0).planting_year, nth(built.trees, 0).height_m], [1985, 16], 'numbers as numbers');
  assert.deepEqual([nth(built.trees, 2).planting_year, nth(built.trees, 2).height_m], [null, null]);
});

test('parser: Hamburg (deegree), recorded page: MultiPoint lon/lat, no numberMatched; built lat/lon order; Kiel decimal comma; hits counts', () => {
  const hh = parseTreePage(json('hamburg_strassenbaumkataster_GetFeature_2026-10-02.geojson'), TREE_WFS_BY_SLUG.get('hamburg')!, now);
  assert.equal(hh.total, null, 'deegree GeoJSON has no numberMatched');
  assert.deepEqual(hh.trees[0], {
    id: 'DE.HH.UP_STRASSENBAUMKATASTER_1',
    species_de: 'Kanadische Pappel',
    species_botanical: 'Populus canadensis',
    genus_de: 'Pappel',
    planting_year: 1959,
    height_m: null,
    crown_diameter_m: 13,
    street: 'Finkenwerder Westerdeich',
    district: 'Finkenwerder',
    lat: 53.52547419808404,
    lon: 9.846289287519417,
  });
  const latLon = parseTreePage(json('hamburg_strassenbaumkataster_GetFeature.geojson'), TREE_WFS_BY_SLUG.get('hamburg')!, now);
  const oak = nth(latLon.trees, 0);
  assert.deepEqual([oak.lat, oak.lon, oak.species_botanical, oak.crown_diameter_m, oak.district], [53.5665, 9.9867, 'Quercus robur', 14, 'Rotherbaum']);
  const kiel = parseTreePage(json('kiel_Baeume_GetFeature.geojson'), TREE_WFS_BY_SLUG.get('kiel')!, now);
  assert.equal(kiel.total, null, 'ArcGIS GeoJSON has no numberMatched');
  assert.equal(nth(kiel.trees, 1).crown_diameter_m, 6.5);
  const hits = (name: string) =>
    parseHits(
      new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(fixture(`tree-wfs/${name}`).toString('utf8')) as Record<string, unknown>,
    );
  assert.equal(hits('kiel_Baeume_hits.xml'), 41736);
  assert.equal(hits('hamburg_strassenbaumkataster_hits.xml'), 229013);
  assert.equal(parseHits({ 'wfs:FeatureCollection': { numberMatched: 'unknown' } }), null, 'deegree writes unknown on feature pages');
  assert.throws(() => parseTreePage({ type: 'ExceptionReport' }, TREE_WFS_BY_SLUG.get('berlin')!, now), UpstreamError);
});

test('GET tree-cadastre for Berlin: the recorded first page with the full count, licence and next start index', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/tree-cadastre');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.ok(published(TreeCadastreRecord()).safeParse(at(r.json, 'data')).success);
  assert.deepEqual(
    [at(r.json, 'data.total'), at(r.json, 'data.sample_size'), at(r.json, 'data.start_index'), at(r.json, 'data.license')],
    [434765, 2, 0, 'dl-de/zero-2-0'],
  );
  assert.deepEqual(
    [at(r.json, 'data.trees.0.species_de'), at(r.json, 'data.trees.0.planting_year'), at(r.json, 'data.trees.1.height_m')],
    ['Pyramiden-Hainbuche', 1975, null],
  );
  assert.equal(at(r.json, 'meta.next_start_index'), 2);
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.deepEqual([q.get('typeNames'), q.get('count'), q.get('startIndex'), q.get('srsName')], ['baumbestand:strassenbaeume', '500', '0', 'EPSG:4326']);
  const next = await ctx.app.get('/api/v1/cities/berlin/tree-cadastre?start_index=500');
  assert.equal(new URL(nth(fake.requests, 1).url, 'http://x').searchParams.get('startIndex'), '500');
  assert.equal(at(next.json, 'data.start_index'), 500);
  const bad = await ctx.app.get('/api/v1/cities/berlin/tree-cadastre?start_index=-1');
  assert.equal(bad.status, 422);
});

test('GET tree-cadastre for Hamburg: the recorded deegree page, layer de.hh.up, the total from a resultType=hits request', async () => {
  const r = await ctx.app.get('/api/v1/cities/hamburg/tree-cadastre');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.ok(published(TreeCadastreRecord()).safeParse(at(r.json, 'data')).success);
  assert.deepEqual([at(r.json, 'data.total'), at(r.json, 'data.sample_size'), at(r.json, 'data.license')], [229013, 2, 'dl-de/by-2-0']);
  assert.deepEqual(
    [at(r.json, 'data.trees.1.id'), at(r.json, 'data.trees.1.planting_year'), at(r.json, 'data.trees.1.crown_diameter_m')],
    ['DE.HH.UP_STRASSENBAUMKATASTER_2', 1949, 20],
  );
  assert.equal(fake.count('/HH_WFS_Strassenbaumkataster'), 2);
  assert.equal(new URL(nth(fake.requests, 0).url, 'http://x').searchParams.get('typeNames'), 'de.hh.up:strassenbaumkataster');
});

test('GET tree-cadastre for Kiel: the total comes from a resultType=hits request', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/tree-cadastre');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.total'), 41736);
  assert.equal(at(r.json, 'data.license'), 'CC-BY-4.0');
  assert.equal(fake.count('/geodatenextern'), 2);
});

test('GET tree-cadastre: past the end is no_data; other cities are not_covered', async () => {
  const end = await ctx.app.get('/api/v1/cities/berlin/tree-cadastre?start_index=435000');
  assert.equal(at(end.json, 'meta.source_status'), 'no_data');
  assert.equal(at(end.json, 'meta.total'), 434765);
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
