import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnknownCity } from './helpers/status-rules.ts';
import { zipFiles } from './helpers/zip.ts';
import { at, list, str } from './helpers/json.ts';
import { INKAR_BASE, INKAR_CSV, inkarZip, register as registerInkar } from './fixtures/inkar/routes.ts';
import { CITIES } from '../src/cities/register.ts';
import { eachInkarRowInZip, InkarReader } from '../src/sources/inkar/rows.ts';
import { parseNumber } from '../src/core/numbers.ts';
import { SDG_INDICATOR_BY_ID } from '../src/sources/inkar/indicators.ts';
import { precomputeSustainability } from '../src/jobs/sustainability-precompute.ts';
import { delimitedRows } from '../src/core/delimited.ts';

const ctx = useFakeApp(registerInkar);
const { fake } = ctx;
const NOW = new Date('2026-11-25T12:00:00Z');
const ZIP_PATH = `${INKAR_BASE}/inkar_2025.zip`;
const CSV = fixture(INKAR_CSV).toString('utf8');

function read(text: string) {
  const r = new InkarReader(CITIES, SDG_INDICATOR_BY_ID);
  for (const row of delimitedRows(text, { label: 'test', trim: false })) r.row(row);
  return r.finish('test');
}

test('parser: decimal comma, thousands dots, empty and non-numeric values', () => {
  assert.equal(parseNumber('27,4', { notation: 'de-or-dot' }), 27.4);
  assert.equal(parseNumber('2.669,3', { notation: 'de-or-dot' }), 2669.3);
  assert.equal(parseNumber('1.084.831', { notation: 'de-or-dot' }), 1084831);
  assert.equal(parseNumber('-0,5', { notation: 'de-or-dot' }), -0.5);
  assert.equal(parseNumber('12', { notation: 'de-or-dot' }), 12);
  assert.equal(parseNumber('', { notation: 'de-or-dot' }), null);
  assert.equal(parseNumber('.', { notation: 'de-or-dot' }), null);
  assert.equal(parseNumber('x', { notation: 'de-or-dot' }), null);
});

test('parser: newest year, Gemeinde before Kreis, Kreis only for kreisfreie cities, other areas ignored', () => {
  const recs = read(CSV);
  const koeln = recs.get('koeln')!;
  assert.deepEqual(koeln.region, { name: 'Köln', ags: '05315000', ars: CITIES.find((c) => c.slug === 'koeln')!.ars });
  const by = new Map(koeln.indicators.map((i) => [i.id, i]));
  assert.deepEqual(by.get('a_hheink_niedrig'), {
    id: 'a_hheink_niedrig',
    label: 'Haushalte mit niedrigem Einkommen',
    unit: '%',
    value: 26.9,
    year: 2022,
    sdg_goal: 1,
    level: 'Gemeinde',
  });
  assert.equal(by.get('a_aloLang')?.value, 38.2);
  assert.equal(by.get('a_aloLang')?.level, 'Kreis (kreisfreie Stadt)');
  assert.equal(by.get('a_bb_1000Mbits')?.value, 72.15);
  assert.equal(by.get('q_bev_fl')?.value, 2669.3);
  assert.equal(by.has('m_OEV20_DIST'), false, 'an empty Wert is no value');
  assert.equal(by.has('xbev'), false, 'undeclared indicators are not kept');
  assert.equal(recs.get('berlin')?.indicators[0]?.value, 4123);
  assert.equal(recs.has('hannover'), false, "the Region Hannover's value is never Hannover's");
  assert.throws(() => read('Kuerzel;Raumbezug;Wert\nx;y;1\n'), /header row without Kennziffer, Zeitbezug/);
  assert.throws(() => read(''), /no header row/);
});

test('zip: the CSV member is found, unsafe names and ZIPs without it fail', async () => {
  const rows: string[][] = [];
  assert.equal(await eachInkarRowInZip(inkarZip(), 1e6, (r) => rows.push(r)), 'inkar_2025.csv');
  assert.equal(rows.length, CSV.trim().split('\n').length);
  await assert.rejects(
    eachInkarRowInZip(zipFiles({ 'readme.txt': 'x' }), 1e6, () => {}),
    /INKAR archive: no inkar_YYYY\.csv member/,
  );
  await assert.rejects(
    eachInkarRowInZip(zipFiles({ '../inkar_2025.csv': CSV }), 1e6, () => {}),
    /INKAR archive: (invalid relative path|unsafe member name)/,
  );
  await assert.rejects(
    eachInkarRowInZip(zipFiles({ 'inkar_2025.csv': CSV }), 100, () => {}),
    /exceeds 100/,
  );
});

test('sustainability: no_data before the job; ok from the store after it, with the edition walked back to', async () => {
  const before = await ctx.app.get('/api/v1/cities/koeln/sustainability');
  assert.equal(before.status, 200);
  assert.equal(at(before.json, 'meta.source_status'), 'no_data');
  assert.match(str(before.json, 'meta.reason'), /not been precomputed/);
  assert.equal(fake.count(INKAR_BASE), 0, 'request paths never download');

  const meta = await precomputeSustainability(ctx.app.rt, () => {}, NOW);
  assert.match(meta.edition, /^INKAR 2025 \(inkar_2025\.zip\/inkar_2025\.csv\)$/);
  assert.equal(meta.rows, CSV.trim().split('\n').length - 1);
  assert.equal(fake.count(INKAR_BASE), 2, '2026 first (404), then 2025');

  const r = await ctx.app.get('/api/v1/cities/koeln/sustainability');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.newest_year'), 2023);
  const inds = list<{ id: string; value: number; sdg_goal: number }>(r.json, 'data.indicators');
  assert.deepEqual(
    inds.map((i) => i.id),
    ['a_hheink_niedrig', 'a_aloLang', 'a_bb_1000Mbits', 'q_bev_fl'],
  );
  assert.equal(inds.find((i) => i.id === 'a_hheink_niedrig')?.value, 26.9);
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/by-2-0');
  assert.match(str(r.json, 'attribution.text'), /BBSR/);
  assert.equal(fake.count(INKAR_BASE), 2, 'reading the store does not download');

  // kreisangehörig with only a district value: no_data naming why; a city without any row: no_data.
  const hannover = await ctx.app.get('/api/v1/cities/hannover/sustainability');
  assert.equal(hannover.status, 200);
  assert.equal(at(hannover.json, 'meta.source_status'), 'no_data');
  assert.match(str(hannover.json, 'meta.reason'), /03241001.*kreisangehörige/);
  const muc = await ctx.app.get('/api/v1/cities/muenchen/sustainability');
  assert.equal(at(muc.json, 'meta.source_status'), 'no_data');
  assert.match(str(muc.json, 'meta.reason'), /INKAR 2025 has no value/);
});

test('sustainability: an edition ZIP whose CSV is Deflate64-compressed (as reported for the real download) is read alike', async () => {
  fake.get(ZIP_PATH, { body: fixture('inkar/inkar_2025-excerpt-deflate64.zip'), headers: { 'content-type': 'application/zip' } });
  const meta = await precomputeSustainability(ctx.app.rt, () => {}, NOW);
  assert.equal(meta.rows, CSV.trim().split('\n').length - 1);
  const r = await ctx.app.get('/api/v1/cities/koeln/sustainability');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const inds = list<{ id: string; value: number }>(r.json, 'data.indicators');
  assert.equal(inds.find((i) => i.id === 'a_hheink_niedrig')?.value, 26.9);
  assert.equal(inds.find((i) => i.id === 'q_bev_fl')?.value, 2669.3);
});

test('sustainability: a malformed ZIP or CSV fails the job and keeps what was stored; never a 500', async () => {
  await precomputeSustainability(ctx.app.rt, () => {}, NOW);
  const bad: [Buffer, RegExp][] = [
    [Buffer.from('<html>maintenance</html>'), /INKAR archive/],
    [zipFiles({ 'other.csv': CSV }), /no inkar_YYYY\.csv member/],
    [zipFiles({ 'inkar_2025.csv': 'garbage;without;header\n1;2;3\n' }), /header row without/],
    [inkarZip(CSV.replace(/;5315000;|;5314000;|;5315;|;11000;/g, ';9999999;')), /none of the declared indicators/],
  ];
  for (const [body, err] of bad) {
    fake.get(ZIP_PATH, { body, headers: { 'content-type': 'application/zip' } });
    await assert.rejects(
      precomputeSustainability(ctx.app.rt, () => {}, NOW),
      err,
    );
  }
  const r = await ctx.app.get('/api/v1/cities/koeln/sustainability');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.indicators.0.value'), 26.9);
});

test('sustainability: 404 unknown city; INKAR_ENABLED=false (Wegweiser off by default) is disabled', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/sustainability');
  await expectDisabled({ fake, env: { INKAR_ENABLED: 'false' }, path: '/api/v1/cities/koeln/sustainability' });
});
