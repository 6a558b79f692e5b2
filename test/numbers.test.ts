import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NUMBER_PLACEHOLDERS, parseNumber, type NumberOptions } from '../src/core/numbers.ts';

/** Every way a source writes a number, with the notation its parser reads it in, and what must come out. */
const CASES: [raw: unknown, options: NumberOptions, expected: number | null, where: string][] = [
  // German statistics: GENESIS, Regionaldatenbank, BA, Zensus.
  ['1024621', {}, 1024621, 'GENESIS plain'],
  ['1.234.567', {}, 1234567, 'GENESIS thousands'],
  ['1.234,5', {}, 1234.5, 'German decimal'],
  ['778,43', {}, 778.43, 'German decimal without grouping'],
  ['-12,5', {}, -12.5, 'negative'],
  ['226.880', {}, 226880, 'BA Eckwerte thousands'],
  [' 10,6 ', {}, 10.6, 'BA cell with spaces'],
  ['1 234,5', {}, 1234.5, 'a space grouping thousands'],
  ['1\u00a0234', {}, 1234, 'a no-break space grouping thousands'],
  ['1.2345', {}, null, 'no German number (a dot groups three digits)'],
  ['12.5', {}, null, 'a decimal dot is not German'],
  ['0x10', {}, null, 'no hex'],
  ['1e5', {}, null, 'no exponent'],
  ['Infinity', {}, null, 'not finite'],
  ['abc', {}, null, 'text'],
  // GENESIS quality marks.
  ['(15)', { qualityMarks: true }, 15, 'GENESIS limited reliability'],
  ['123p', { qualityMarks: true }, 123, 'GENESIS provisional'],
  ['1.234 r', { qualityMarks: true }, 1234, 'GENESIS revised'],
  ['(15)', {}, null, 'parentheses without quality marks'],
  // INKAR mixes German grouping and plain decimal dots.
  ['2.669,3', { notation: 'de-or-dot' }, 2669.3, 'INKAR German'],
  ['1.084.831', { notation: 'de-or-dot' }, 1084831, 'INKAR thousands'],
  ['12.5', { notation: 'de-or-dot' }, 12.5, 'INKAR decimal dot'],
  ['-0,5', { notation: 'de-or-dot' }, -0.5, 'INKAR negative'],
  // Decimal comma or dot, no grouping: coordinates (Unfallatlas, DB stations, Klinikatlas, Berlin counters), BNetzA, Bundeswahlleiterin, BORIS, tree cadastres, Autobahn.
  ['7,2', { notation: 'decimal' }, 7.2, 'BNetzA decimal comma'],
  ['6.85', { notation: 'decimal' }, 6.85, 'Autobahn string'],
  ['13,4063', { notation: 'decimal' }, 13.4063, 'Unfallatlas coordinate'],
  [52.52, { notation: 'decimal' }, 52.52, 'a JSON number'],
  ['', { notation: 'decimal' }, null, 'an empty coordinate is no 0'],
  ['1.234,5', { notation: 'decimal' }, null, 'grouping is not decimal'],
  // English thousands: BKA PKS since 2023.
  ['5,940,667', { notation: 'en' }, 5940667, 'BKA thousands'],
  ['7,042.10', { notation: 'en' }, 7042.1, 'BKA decimal'],
  ['1.234,5', { notation: 'en' }, null, 'German is not English'],
  // Units after the number: LHP flood portal.
  ['38,5 m3/s', { unit: /m(?:3|³)\/s/ }, 38.5, 'LHP discharge'],
  ['1.870 m³/s', { unit: /m(?:3|³)\/s/ }, 1870, 'LHP discharge thousands'],
  ['108 cm', { unit: /cm/ }, 108, 'LHP level'],
  ['108', { unit: /cm/ }, null, 'unit missing'],
  // Not text, not a number.
  [null, {}, null, 'null'],
  [undefined, {}, null, 'undefined'],
  [{}, {}, null, 'object'],
  [Number.NaN, {}, null, 'NaN'],
];

test('one number parser reads every notation the sources use, strictly', () => {
  for (const [raw, options, expected, where] of CASES) assert.equal(parseNumber(raw, options), expected, `${where}: ${JSON.stringify(raw)}`);
});

test('every placeholder of German statistics is no value, in every notation', () => {
  for (const sign of NUMBER_PLACEHOLDERS)
    for (const notation of ['de', 'de-or-dot', 'decimal', 'en'] as const)
      assert.equal(parseNumber(sign, { notation, qualityMarks: true }), null, `${notation} ${JSON.stringify(sign)}`);
});

test('property: a number written in each notation reads back as itself', () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 2000; i++) {
    const n = Math.round((next() - 0.5) * 10 ** Math.floor(next() * 9) * 100) / 100;
    const [int, frac] = Math.abs(n).toFixed(2).split('.') as [string, string];
    const sign = n < 0 ? '-' : '';
    const grouped = (sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
    assert.equal(parseNumber(`${sign}${grouped('.')},${frac}`), Math.abs(n) === 0 ? 0 : n);
    assert.equal(parseNumber(`${sign}${grouped(',')}.${frac}`, { notation: 'en' }), Math.abs(n) === 0 ? 0 : n);
    assert.equal(parseNumber(`${sign}${int},${frac}`, { notation: 'decimal' }), Math.abs(n) === 0 ? 0 : n);
  }
});
