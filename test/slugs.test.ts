import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from './helpers/app.ts';
import { CITIES } from '../src/cities/register.ts';
import { findCity } from '../src/cities/resolve.ts';
import { fold } from '../src/core/fold.ts';
import { at, str } from './helpers/json.ts';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

test('register: 84 cities, 28 core, 16 state capitals, unique slugs/AGS/QIDs', () => {
  assert.equal(CITIES.length, 84);
  assert.equal(CITIES.filter((c) => c.core).length, 28);
  assert.equal(CITIES.filter((c) => c.state_capital).length, 16);
  for (const key of ['slug', 'ags', 'ars', 'wikidata'] as const) assert.equal(new Set(CITIES.map((c) => c[key])).size, 84, key);
});

test('register: AGS 8-digit strings with leading zero, ARS 12 digits, slugs lower-case ASCII', () => {
  for (const c of CITIES) {
    assert.match(c.ags, /^\d{8}$/, c.slug);
    assert.match(c.ars, /^\d{12}$/, c.slug);
    assert.match(c.slug, /^[a-z0-9]+(-[a-z0-9]+)*$/, c.slug);
    assert.equal(c.slug, fold(c.name), `slug of ${c.name}`);
    assert.match(c.population_date, /^\d{4}-\d{2}-\d{2}$/);
  }
  const ags = Object.fromEntries(CITIES.map((c) => [c.slug, c.ags]));
  assert.equal(ags.hamburg, '02000000');
  assert.equal(ags.hanau, '06415000');
  assert.equal(ags.hannover, '03241001');
  assert.equal(ags.saarbruecken, '10041100');
  assert.equal(ags.aachen, '05334002');
  assert.equal(ags.goettingen, '03159016');
  for (const s of [
    'halle-saale',
    'frankfurt-am-main',
    'freiburg-im-breisgau',
    'oldenburg',
    'muelheim-an-der-ruhr',
    'guetersloh',
    'hildesheim',
    'schwerin',
    'cottbus',
  ])
    assert.ok(ags[s], s);
});

test('register: the 28 core cities are the 16 state capitals plus the 12 largest others', () => {
  const core = CITIES.filter((c) => c.core)
    .map((c) => c.slug)
    .sort();
  assert.deepEqual(
    core,
    [
      'berlin',
      'bielefeld',
      'bochum',
      'bonn',
      'bremen',
      'dortmund',
      'dresden',
      'duesseldorf',
      'duisburg',
      'erfurt',
      'essen',
      'frankfurt-am-main',
      'hamburg',
      'hannover',
      'kiel',
      'koeln',
      'leipzig',
      'magdeburg',
      'mainz',
      'muenchen',
      'muenster',
      'nuernberg',
      'potsdam',
      'saarbruecken',
      'schwerin',
      'stuttgart',
      'wiesbaden',
      'wuppertal',
      'erfurt',
    ]
      .filter((v, i, a) => a.indexOf(v) === i)
      .sort(),
  );
});

const SPELLINGS: [string, string][] = [
  ['München', 'muenchen'],
  ['muenchen', 'muenchen'],
  ['munchen', 'muenchen'],
  ['MÜNCHEN', 'muenchen'],
  ['Munich', 'muenchen'],
  ['%C3%BCnchen'.replace('%C3%BC', 'M%C3%BC'), 'muenchen'],
  ['cologne', 'koeln'],
  ['Köln', 'koeln'],
  ['koln', 'koeln'],
  ['frankfurt', 'frankfurt-am-main'],
  ['Frankfurt am Main', 'frankfurt-am-main'],
  ['halle', 'halle-saale'],
  ['Halle (Saale)', 'halle-saale'],
  ['freiburg', 'freiburg-im-breisgau'],
  ['mulheim', 'muelheim-an-der-ruhr'],
  ['muelheim', 'muelheim-an-der-ruhr'],
  ['Nuremberg', 'nuernberg'],
  ['Hanover', 'hannover'],
  ['Brunswick', 'braunschweig'],
  ['Aix-la-Chapelle', 'aachen'],
  ['Düsseldorf', 'duesseldorf'],
  ['dusseldorf', 'duesseldorf'],
  ['Saarbrücken', 'saarbruecken'],
  ['GÖTTINGEN', 'goettingen'],
  ['Oldenburg (Oldb)', 'oldenburg'],
];

test('tolerant slugs resolve in the resolver', () => {
  for (const [input, slug] of SPELLINGS) assert.equal(findCity(input)?.slug, slug, input);
});

test('tolerant slugs resolve through HTTP and the answer names the canonical slug', async () => {
  for (const [input, slug] of SPELLINGS) {
    const r = await app.get(`/api/v1/cities/${encodeURIComponent(input)}`);
    assert.equal(r.status, 200, input);
    assert.equal(at(r.json, 'data.slug'), slug, input);
    assert.equal(at(r.json, 'meta.city'), slug);
    assert.equal(r.headers.get('content-location'), `/api/v1/cities/${slug}`);
  }
});

test('unknown city: 404 problem with a did-you-mean hint naming the nearest slug', async () => {
  for (const [typo, slug] of [
    ['koelnn', 'koeln'],
    ['berln', 'berlin'],
    ['muenchn', 'muenchen'],
    ['hamburgg', 'hamburg'],
  ]) {
    const r = await app.get(`/api/v1/cities/${typo}`);
    assert.equal(r.status, 404);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(at(r.json, 'code'), 'city_not_found');
    assert.match(str(r.json, 'hint'), new RegExp(`"${slug}"`));
    assert.equal(at(r.json, 'suggestion'), slug);
  }
});

test('unknown city far from every name: 404 hint points to GET /api/v1/cities', async () => {
  const r = await app.get('/api/v1/cities/xqzvwpt');
  assert.equal(r.status, 404);
  assert.equal(at(r.json, 'code'), 'city_not_found');
  assert.match(str(r.json, 'hint'), /GET \/api\/v1\/cities/);
  assert.equal(at(r.json, 'suggestion'), undefined);
});

test('ambiguous short names are not aliases (gladbach)', () => {
  assert.equal(findCity('gladbach'), null);
});
