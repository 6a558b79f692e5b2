import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { startDemo, type Demo } from '../scripts/demo.ts';
import { examplePath, type DataType } from '../src/core/data-type.ts';
import { formatsOf, type Format } from '../src/core/formats.ts';
import { formatEtag } from '../src/http/formats/send.ts';

/**
 * Issue 30 as it is checked: in demo mode every list type answers CSV with as many rows as its
 * JSON has items (read by csv-parse with strict options), every list with positions answers
 * GeoJSON that GDAL's ogrinfo opens with the same feature count, a type without positions
 * answers 406 to ?format=geojson, and If-None-Match gives 304 in every format.
 */
const run = promisify(execFile);
const OGRINFO = '/usr/bin/ogrinfo';

let demo: Demo;
let dir: string;
before(async () => {
  // Each type is asked in every format, more often than one client may (the limit has its own test).
  process.env.RATE_LIMIT_ENABLED = 'false';
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
  dir = await mkdtemp(join(tmpdir(), 'stadtdaten-formats-'));
});
after(async () => {
  delete process.env.RATE_LIMIT_ENABLED;
  await demo.close();
  await rm(dir, { recursive: true, force: true });
});

const withFormat = (path: string, f: Format) => `${path}${path.includes('?') ? '&' : '?'}format=${f}`;

/** What the JSON answer counts as rows: the list's items, or the one record. */
function itemCount(dt: DataType, data: unknown): number {
  if (data === null) return 0;
  if (Array.isArray(data)) return data.length;
  if (typeof dt.list === 'string') return ((data as Record<string, unknown[]>)[dt.list] ?? []).length;
  return 1;
}

interface Pair {
  count: number;
  body: string;
  res: Response;
}

/**
 * The JSON item count and the other format's answer of one moment: live types refresh between
 * two requests, so the pair is taken again until both carry the same data (the format's ETag is
 * derived from the JSON one).
 */
async function pairOf(dt: DataType, f: Format): Promise<Pair> {
  const path = examplePath(dt);
  for (let attempt = 0; ; attempt++) {
    const j = await fetch(demo.url + path);
    const json = (await j.json()) as { data: unknown };
    const res = await fetch(demo.url + withFormat(path, f));
    const body = await res.text();
    if (res.headers.get('etag') === formatEtag(j.headers.get('etag')!, f) || attempt === 5) return { count: itemCount(dt, json.data), body, res };
  }
}

const strictCsv = (text: string) =>
  parse(text, {
    bom: false,
    delimiter: ',',
    quote: '"',
    escape: '"',
    record_delimiter: '\r\n',
    relax_column_count: false,
    relax_quotes: false,
    skip_empty_lines: false,
  }) as string[][];

test('demo: every type offering CSV answers it with a header row and one row per JSON item (strict csv-parse)', async () => {
  let lists = 0;
  for (const dt of demo.built.rt.catalog.all) {
    if (!formatsOf(dt).includes('csv')) continue;
    const { count, body, res } = await pairOf(dt, 'csv');
    assert.equal(res.status, 200, dt.type);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/, dt.type);
    assert.equal(res.headers.get('x-source-status'), 'ok', dt.type);
    assert.match(res.headers.get('link') ?? '', /rel="license"/, dt.type);
    const rows = strictCsv(body);
    assert.ok(rows.length >= 1, `${dt.type}: header row`);
    assert.equal(rows.length - 1, count, `${dt.type}: CSV rows = JSON items`);
    if (dt.list) lists++;
  }
  assert.ok(lists >= 40, `${lists} list types checked`);
});

test('demo: every list with positions answers GeoJSON that ogrinfo opens with the JSON item count', async () => {
  let n = 0;
  for (const dt of demo.built.rt.catalog.all) {
    if (!formatsOf(dt).includes('geojson')) continue;
    const { count, body, res } = await pairOf(dt, 'geojson');
    assert.equal(res.status, 200, dt.type);
    assert.equal(res.headers.get('content-type'), 'application/geo+json', dt.type);
    const fc = JSON.parse(body) as { type: string; meta: { source_status: string }; attribution: unknown; features: unknown[] };
    assert.equal(fc.type, 'FeatureCollection');
    assert.equal(fc.meta.source_status, 'ok', dt.type);
    assert.ok(fc.attribution, dt.type);
    const file = join(dir, `${dt.type}.geojson`);
    await writeFile(file, body);
    const { stdout } = await run(OGRINFO, ['-ro', '-so', '-al', file]);
    assert.match(stdout, /using driver `GeoJSON' successful/, dt.type);
    assert.equal(Number(/Feature Count: (\d+)/.exec(stdout)?.[1]), count, `${dt.type}: ogrinfo feature count = JSON items`);
    n++;
  }
  assert.ok(n >= 30, `${n} GeoJSON types checked`);
});

test('demo: a type without positions answers 406 to ?format=geojson, naming the formats it has', async () => {
  const without = demo.built.rt.catalog.all.filter((dt) => !formatsOf(dt).includes('geojson'));
  assert.ok(without.length > 0);
  for (const dt of without) {
    const res = await fetch(demo.url + withFormat(examplePath(dt), 'geojson'));
    assert.equal(res.status, 406, dt.type);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const p = (await res.json()) as { code: string; formats: string[] };
    assert.equal(p.code, 'not_acceptable');
    assert.deepEqual(p.formats, formatsOf(dt));
  }
});

test('demo: If-None-Match gives 304 in every format a type offers, each format with its own ETag', async () => {
  for (const dt of demo.built.rt.catalog.all) {
    const tags = new Set<string>();
    for (const f of formatsOf(dt)) {
      const path = withFormat(examplePath(dt), f);
      for (let attempt = 0; ; attempt++) {
        const first = await fetch(demo.url + path);
        await first.arrayBuffer();
        const etag = first.headers.get('etag')!;
        const again = await fetch(demo.url + path, { headers: { 'if-none-match': etag } });
        await again.arrayBuffer();
        // A live type may have refreshed in between: then its tag moved on, and the pair is taken again.
        if (again.status === 304 || attempt === 5) {
          assert.equal(again.status, 304, `${dt.type} ${f}`);
          tags.add(etag);
          break;
        }
      }
    }
    assert.equal(tags.size, formatsOf(dt).length, `${dt.type}: one ETag per format`);
  }
});
