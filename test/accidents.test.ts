import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnknownCity } from './helpers/status-rules.ts';
import { zipFiles } from './helpers/zip.ts';
import { POINTS_2018, UNFALLATLAS_BASE, register as registerUnfallatlas, unfallatlasZip } from './fixtures/unfallatlas/routes.ts';
import { CITIES } from '../src/cities/register.ts';
import { AccidentReader, eachPointRowInZip } from '../src/sources/unfallatlas/points.ts';
import { safeMemberName } from '../src/upstream/zip-archive.ts';
import { delimitedRows } from '../src/core/delimited.ts';
import { ingestAccidents } from '../src/jobs/accidents-ingest.ts';
import { nth } from './helpers/must.ts';
import { at, str, list } from './helpers/json.ts';

const TABLE = fixture(POINTS_2018).toString();
const read = (text: string) => {
  const r = new AccidentReader(CITIES);
  for (const row of delimitedRows(text, { label: 'test' })) r.row(row);
  r.finish();
  return r;
};
/** The same rows in another year's layout: columns moved and IstSonstig renamed, as later files do. */
function relayout(text: string): string {
  const rows = text
    .trim()
    .split('\n')
    .map((l) => l.split(';'));
  const order = [...nth(rows, 0).keys()].reverse();
  return rows.map((r, i) => order.map((j) => (i === 0 && r[j] === 'IstSonstig' ? 'IstSonstige' : r[j])).join(';')).join('\r\n');
}

const ctx = useFakeApp(registerUnfallatlas);
const { fake } = ctx;
const ZIP_PATH = `${UNFALLATLAS_BASE}/Unfallorte2018_EPSG25832_CSV.zip`;

test('parser: the recorded 2018 rows by AGS; Lübeck gets its own accident', () => {
  const r = read(TABLE);
  assert.equal(r.rows, 3);
  assert.deepEqual([...r.states], ['01']);
  assert.deepEqual([...r.tallies.keys()], ['luebeck']);
  const t = r.tallies.get('luebeck')!;
  assert.equal(t.year, 2018);
  assert.equal(t.accidents, 1);
  assert.deepEqual(t.category, [0, 1, 0]);
  assert.deepEqual([...t.type], [[7, 1]]);
  assert.deepEqual([...t.kind], [[0, 1]]);
  assert.equal(t.involving.bicycle, 1);
  assert.deepEqual(t.points[0], {
    lat: 53.863081,
    lon: 10.70395,
    category: 2,
    kind: 0,
    type: 7,
    month: 1,
    hour: 8,
    weekday: 5,
    light: 0,
    involved: ['bicycle'],
  });
});

test('parser: columns are found by name in another layout; a file without header fails', () => {
  const moved = read(relayout(TABLE)).tallies.get('luebeck')!;
  assert.deepEqual(moved.points[0], read(TABLE).tallies.get('luebeck')!.points[0]);
  assert.throws(() => read('1;01;0;03;000;2018\n'), /header row/);
  assert.throws(() => read(nth(TABLE.split('\n'), 0)), /no accident row/);
});

test('zip: member names are checked, a ZIP without the point table fails', async () => {
  assert.equal(safeMemberName('csv/Unfallorte2018_LinRef.txt'), true);
  assert.equal(safeMemberName('../etc/passwd'), false);
  assert.equal(safeMemberName('/abs/Unfallorte2018_LinRef.csv'), false);
  await assert.rejects(
    eachPointRowInZip(zipFiles({ '../Unfallorte2018_LinRef.csv': TABLE }), 1e6, () => {}),
    /Unfallatlas archive: (invalid relative path|unsafe member name)/,
  );
  await assert.rejects(
    eachPointRowInZip(zipFiles({ 'readme.txt': 'x' }), 1e6, () => {}),
    /no Unfallorte/,
  );
  await assert.rejects(
    eachPointRowInZip(Buffer.from('not a zip'), 1e6, () => {}),
    /Unfallatlas archive/,
  );
  const rows: string[][] = [];
  assert.equal(await eachPointRowInZip(unfallatlasZip(), 1e6, (r) => rows.push(r)), 'csv/Unfallorte2018_LinRef.txt');
  assert.equal(rows.length, 4);
});

test('accidents: no_data before the ingest; the job walks back to the newest year and stores per city', async () => {
  const before = await ctx.app.get('/api/v1/cities/luebeck/accidents');
  assert.equal(before.status, 200);
  assert.equal(at(before.json, 'meta.source_status'), 'no_data');
  assert.match(str(before.json, 'meta.reason'), /not been ingested/);
  assert.equal(fake.count(UNFALLATLAS_BASE), 0, 'request paths never download');

  const meta = await ingestAccidents(ctx.app.rt, () => {}, new Date('2026-11-25T12:00:00+01:00'));
  assert.equal(meta.year, 2018);
  assert.equal(meta.rows, 3);
  assert.equal(fake.count(UNFALLATLAS_BASE), 2025 - 2018 + 1);

  const r = await ctx.app.get('/api/v1/cities/luebeck/accidents');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = at(r.json, 'data');
  assert.equal(at(d, 'year'), 2018);
  assert.equal(at(d, 'accidents'), 1);
  assert.equal(at(d, 'per_100k_inhabitants'), 0.5);
  assert.deepEqual(at(d, 'by_category'), { killed: 0, seriously_injured: 1, slightly_injured: 0 });
  assert.deepEqual(at(d, 'by_type'), [{ code: 7, label: 'Sonstiger Unfall', accidents: 1 }]);
  assert.equal(at(d, 'by_kind.0.label'), 'Unfall anderer Art');
  assert.equal(at(d, 'points_total_available'), 1);
  assert.equal(at(d, 'points.0.lat'), 53.863081);
  assert.equal(at(d, 'source_file'), 'Unfallorte2018_EPSG25832_CSV.zip/csv/Unfallorte2018_LinRef.txt');
  assert.match(str(r.json, 'attribution.text'), /Unfallatlas/);

  // a city of the same Land without a row, a city of a Land missing from the file, a kreisangehörige city: own values only
  const kiel = await ctx.app.get('/api/v1/cities/kiel/accidents');
  assert.equal(at(kiel.json, 'meta.source_status'), 'no_data');
  assert.match(str(kiel.json, 'meta.reason'), /lists no accident in this municipality/);
  const berlin = await ctx.app.get('/api/v1/cities/berlin/accidents');
  assert.match(str(berlin.json, 'meta.reason'), /no data for Berlin/);
  assert.equal(at((await ctx.app.get('/api/v1/cities/hannover/accidents')).json, 'meta.source_status'), 'no_data');

  const cmp = await ctx.app.get('/api/v1/compare?cities=luebeck,kiel&resource=accidents');
  assert.equal(cmp.status, 200);
  const lue = list<{ city: string }>(cmp.json, 'data').find((i) => i.city === 'luebeck');
  assert.equal(at(lue, 'data.per_100k_inhabitants'), 0.5);
  assert.equal(at(lue, 'data.points'), undefined);
});

test('accidents: a malformed ZIP fails the job and keeps what was stored', async () => {
  await ingestAccidents(ctx.app.rt, () => {}, new Date('2026-11-25T12:00:00+01:00'));
  fake.get(ZIP_PATH, { body: Buffer.from('<html>maintenance</html>'), headers: { 'content-type': 'text/html' } });
  await assert.rejects(
    ingestAccidents(ctx.app.rt, () => {}, new Date('2026-11-25T12:00:00+01:00')),
    /Unfallatlas archive/,
  );
  fake.get(ZIP_PATH, { body: zipFiles({ 'csv/Unfallorte2018_LinRef.txt': 'garbage;without;header\n' }), headers: { 'content-type': 'application/zip' } });
  await assert.rejects(
    ingestAccidents(ctx.app.rt, () => {}, new Date('2026-11-25T12:00:00+01:00')),
    /header row/,
  );
  const r = await ctx.app.get('/api/v1/cities/luebeck/accidents');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.accidents'), 1);
});

test('accidents: 404 unknown city, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/accidents');
  await expectDisabled({ fake, env: { UNFALLATLAS_ENABLED: 'false' }, path: '/api/v1/cities/luebeck/accidents' });
});
