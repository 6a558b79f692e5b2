import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { parseFfcsv } from '../src/sources/genesis/ffcsv.ts';
import { NUMBER_PLACEHOLDERS as PLACEHOLDERS, parseNumber } from '../src/core/numbers.ts';
import { latestWithData, referenceDate, rowsOfRegion, series, extractPeriod } from '../src/sources/genesis/select.ts';
import { firstCsvInZip } from '../src/sources/genesis/zip.ts';
import { regionFor } from '../src/sources/genesis/region.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { zipOne } from './fixtures/genesis/zip.ts';
import { nth } from './helpers/must.ts';

const rows = (file: string) => parseFfcsv(fixture(`genesis/${file}`));

test('number format: thousands dots, decimal comma, signs and markers', () => {
  assert.equal(parseNumber('1024621', { qualityMarks: true }), 1024621);
  assert.equal(parseNumber('1.234.567', { qualityMarks: true }), 1234567);
  assert.equal(parseNumber('1.234,5', { qualityMarks: true }), 1234.5);
  assert.equal(parseNumber('778,43', { qualityMarks: true }), 778.43);
  assert.equal(parseNumber('-12,5', { qualityMarks: true }), -12.5);
  assert.equal(parseNumber('0', { qualityMarks: true }), 0);
  assert.equal(parseNumber('(15)', { qualityMarks: true }), 15);
  assert.equal(parseNumber('123p', { qualityMarks: true }), 123);
  assert.equal(parseNumber('abc', { qualityMarks: true }), null);
});

test('every placeholder symbol of the GENESIS legend is null', () => {
  for (const sign of ['-', '.', '...', '…', 'x', '/', '', '–']) {
    assert.ok(PLACEHOLDERS.has(sign), sign);
    assert.equal(parseNumber(sign, { qualityMarks: true }), null, `sign ${JSON.stringify(sign)}`);
  }
  assert.equal(parseNumber(' . ', { qualityMarks: true }), null);
  assert.equal(parseNumber('(x)', { qualityMarks: true }), null);
});

test('parser: real 12411-01-01-4 answer, columns and region lines', () => {
  const r = rows('12411-01-01-4.csv');
  assert.equal(r.length, 18);
  const koeln = rowsOfRegion(r, '05315');
  assert.equal(koeln.length, 3);
  const total = koeln.find((x) => x.variables.find((v) => v.code === 'GES')?.attribute_code === '');
  assert.equal(total?.value, 1024621);
  assert.equal(total?.time, '2024-12-31');
  assert.equal(total?.time_code, 'STAG');
  assert.equal(total?.value_code, 'BEVSTD');
  assert.equal(total?.unit, 'Anzahl');
  assert.deepEqual(total?.variables[0], {
    code: 'KREISE',
    label: 'Kreise und kreisfreie Städte',
    attribute_code: '05315',
    attribute_label: 'Köln, kreisfreie Stadt',
  });
  const en = rows('12411-01-01-4_en.csv');
  assert.equal(rowsOfRegion(en, '11000').find((x) => x.variables[1]?.attribute_label === 'Total')?.value, 3685265);
});

test('parser: real 61511-01-03-4 decimal comma and 73111-01-01-4 without classifying variables', () => {
  const prices = rowsOfRegion(rows('61511-01-03-4.csv'), '05315');
  assert.equal(prices.find((x) => x.value_code === 'BAU004')?.value, 778.43);
  const tax = rowsOfRegion(rows('73111-01-01-4.csv'), '09162');
  assert.equal(tax.length, 3);
  assert.equal(
    tax.every((x) => x.variables.length === 1),
    true,
  );
  assert.equal(tax.find((x) => x.value_code === 'LSNW02')?.value, 13915307);
  assert.equal(tax.find((x) => x.value_code === 'LSNW02')?.unit, 'Tsd. EUR');
});

test('selection: totals, attributes and value variables without classifying variable (real 52411-02-01-4)', () => {
  const koeln = rowsOfRegion(rows('52411-02-01-4.csv'), '05315');
  const rec = latestWithData(koeln, {
    fields: [
      { field: 'total', value: { codes: ['ISV006'] } },
      { field: 'opened', value: { codes: ['ISV006'] }, where: { ISVAT3: 'ISVART01' } },
      { field: 'rejected', value: { codes: ['ISV006'] }, where: { ISVAT3: 'ISVART02' } },
      { field: 'employees', value: { codes: ['ISVNW1'] } },
    ],
  });
  assert.deepEqual(rec?.values, { total: 427, opened: 319, rejected: 108, employees: 727 });
  assert.equal(rec?.period, '2024');
  assert.equal(rec?.reference_date, '2024-12-31');
  assert.equal(rec?.period_type, 'year');
  assert.equal(rec?.region_name, 'Köln, kreisfreie Stadt');
});

test('latest period: an all-placeholder newest period falls back to the previous one', () => {
  const sel = { fields: [{ field: 'employees', value: { codes: ['ERW032'] } }] };
  // Recorded: every Kreis value of 30.06.2025 is "-".
  assert.equal(latestWithData(rowsOfRegion(rows('13111-01-03-4.csv'), '05315'), sel), null);
  const built = rowsOfRegion(rows('13111-01-03-5.csv'), '05315');
  assert.equal(extractPeriod(built, '2025-06-30', sel), null);
  const rec = latestWithData(built, sel);
  assert.equal(rec?.period, '2024-06-30');
  assert.equal(rec?.values.employees, 601874);
});

test('time series: periods oldest first, placeholder years skipped', () => {
  const hannover = rowsOfRegion(rows('12411-01-01-5.csv'), '03241001');
  const s = series(hannover, { fields: [{ field: 'population', value: { codes: ['BEVSTD'] } }] });
  assert.equal(nth(s, 0).period, '2014-12-31');
  assert.equal(s.at(-1)?.period, '2024-12-31');
  assert.equal(
    s.some((p) => p.period === '2015-12-31'),
    false,
  );
  assert.equal(s.length, 10);
});

test('reference dates from Stichtag, German dates and years', () => {
  assert.equal(referenceDate('2024-12-31', 'STAG'), '2024-12-31');
  assert.equal(referenceDate('01.03.2024', 'STAG'), '2024-03-01');
  assert.equal(referenceDate('2024', 'JAHR'), '2024-12-31');
  assert.equal(referenceDate('WS 2023/24', 'SEMEST'), null);
});

test('zip: member of a GENESIS-style archive with data descriptor, BOM kept for the parser', async () => {
  const csv = Buffer.concat([Buffer.from('\uFEFF'), fixture('genesis/12411-01-01-4.csv')]);
  const out = await firstCsvInZip(zipOne('12411-01-01-4_1749623963823_de_flat.csv', csv), 1 << 20);
  assert.equal(parseFfcsv(out).length, 18);
  await assert.rejects(firstCsvInZip(zipOne('x.csv', csv), 100), /exceeds/);
});

test('region rule: municipality and district tables, district-free or not', () => {
  const koeln = CITY_BY_SLUG.get('koeln')!;
  const hannover = CITY_BY_SLUG.get('hannover')!;
  assert.deepEqual(regionFor(koeln, '52411-02-01-4'), { ok: true, region: { variable: 'KREISE', key: '05315', level: 'district' } });
  const h = regionFor(hannover, '52411-02-01-4');
  assert.equal(h.ok, false);
  assert.match(h.ok ? '' : h.reason, /03241/);
  assert.deepEqual(regionFor(hannover, '12411-01-01-5'), { ok: true, region: { variable: 'GEMEIN', key: '03241001', level: 'municipality' } });
  const k5 = regionFor(koeln, '12411-01-01-5');
  assert.equal(k5.ok && k5.region.variable, 'KREISE');
  assert.equal(k5.ok && k5.region.fallback?.key, '05315000');
});
