import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { at, list } from './helpers/json.ts';
import { nth } from './helpers/must.ts';
import { register as registerWikidataSparql } from './fixtures/wikidata-sparql/routes.ts';
import { heritageQuery, parseHeritage, parseWktPoint, type SparqlResults } from '../src/sources/wikidata-sparql/heritage.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { HeritageRecord } from '../src/core/records/city-base.ts';
import { published } from '../src/core/schema.ts';

const json = (name: string): SparqlResults => JSON.parse(fixture(`wikidata-sparql/${name}`).toString('utf8')) as SparqlResults;
const ctx = useFakeApp(registerWikidataSparql);
const { fake } = ctx;

test('parser: WKT points of the real WDQS recording are longitude first', () => {
  const rows = json('wdqs-sparql-results-german-cities-excerpt.json').results!.bindings!;
  const leipzig = rows.find((r) => r.cityLabel?.value === 'Leipzig')!;
  assert.deepEqual(parseWktPoint(leipzig.location?.value), { lat: 51.34, lon: 12.375 });
  assert.equal(parseWktPoint('Point(200 100)'), null);
  assert.equal(parseWktPoint('garbage'), null);
});

test('parser: rows merged per item (designations collected), unlabelled items named null, https image URLs, sorted by name', () => {
  const items = parseHeritage(json('heritage_muenchen_Q1726.json'));
  assert.deepEqual(
    items.map((i) => i.name),
    ['Alter Hof', 'Bavaria', 'Frauenkirche', 'Siegestor', null],
  );
  const frauenkirche = items[2];
  assert.deepEqual(frauenkirche, {
    wikidata_id: 'Q900001',
    name: 'Frauenkirche',
    designations: ['Baudenkmal in Bayern', 'Bodendenkmal in Bayern'],
    lat: 48.138611,
    lon: 11.573611,
    street_address: 'Frauenplatz 12, 80331 München',
    image_url: 'https://commons.wikimedia.org/wiki/Special:FilePath/M%C3%BCnchen%20Frauenkirche.jpg',
    article_url: 'https://de.wikipedia.org/wiki/Frauenkirche_(M%C3%BCnchen)',
    wikidata_url: 'https://www.wikidata.org/wiki/Q900001',
  });
  assert.throws(() => parseHeritage({ head: {} }), UpstreamError);
});

test('query: heritage designation, located in the city item transitively, coordinates; only item ids are spliced in', () => {
  const q = heritageQuery('Q1726');
  assert.match(q, /wdt:P1435 \?designation/);
  assert.match(q, /wdt:P131\+ wd:Q1726 ;/);
  assert.match(q, /wdt:P625 \?coord/);
  assert.throws(() => heritageQuery('Q1 } DROP'), /not a Wikidata item id/);
});

test('GET heritage for München: ok list with pagination, CC0 attribution, one SPARQL call cached', async () => {
  const r = await ctx.app.get('/api/v1/cities/muenchen/heritage');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'attribution.license'), 'CC0-1.0');
  assert.equal(at(r.json, 'data.length'), 5);
  assert.equal(at(r.json, 'meta.total'), 5);
  for (const item of list(r.json, 'data')) assert.ok(published(HeritageRecord()).safeParse(item).success);
  const page = await ctx.app.get('/api/v1/cities/muenchen/heritage?limit=2&offset=1');
  assert.deepEqual(
    list<{ name: string }>(page.json, 'data').map((i) => i.name),
    ['Bavaria', 'Frauenkirche'],
  );
  assert.equal(fake.count('/sparql'), 1, 'the second request is a cache hit');
  assert.match(String(nth(fake.requests, 0).headers['user-agent']), /Stadtdaten/);
});

test('GET heritage: no monuments in Wikidata is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/heritage');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
});

test('GET heritage: a garbage body or a dead service with nothing cached is a 503 problem', async () => {
  fake.get('/sparql', { body: 'java.util.concurrent.TimeoutException', headers: { 'content-type': 'text/plain' } });
  const r = await ctx.app.get('/api/v1/cities/bonn/heritage');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  await expectUnavailable({ fake, path: '/api/v1/cities/essen/heritage' });
});

test('GET heritage: toggle off is disabled', async () => {
  await expectDisabled({ fake, env: { WIKIDATA_SPARQL_ENABLED: 'false' }, path: '/api/v1/cities/muenchen/heritage' });
});
