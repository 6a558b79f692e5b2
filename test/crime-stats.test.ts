import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnknownCity } from './helpers/status-rules.ts';
import { PKS_BASE, PKS_CITY_TABLE, register as registerBkaPks } from './fixtures/bka-pks/routes.ts';
import { numberFormat, parseCityTable } from '../src/sources/bka-pks/city-table.ts';
import { parseNumber } from '../src/core/numbers.ts';
import { decodeTable } from '../src/sources/bka-pks/stored.ts';
import { ingestCrimeStats } from '../src/jobs/crime-stats-ingest.ts';
import { at, str, list } from './helpers/json.ts';

const ZR = fixture('bka-pks/ZR-F-01-T01-Faelle_csv-2023-excerpt.csv').toString();
const CITY = fixture('bka-pks/ST-F-01-T01-Staedte-Faelle-HZ_csv_built.csv').toString();
const NOW = new Date('2026-11-25T12:00:00+01:00');

const ctx = useFakeApp(registerBkaPks);
const { fake } = ctx;

test('numbers: the recorded BKA CSV is in English format; German format is recognised when shown', () => {
  const rows = ZR.split('\n');
  assert.equal(numberFormat(rows), 'en');
  const total2023 = rows.find((r) => r.startsWith('------;Straftaten insgesamt;2023'))!.split(';');
  assert.equal(parseNumber(total2023[3], { notation: 'en' }), 5940667);
  assert.equal(parseNumber(total2023[4], { notation: 'en' }), 7042.1);
  assert.equal(numberFormat(['x;1.234,5']), 'de');
  assert.equal(parseNumber('1.234,5', { notation: 'de' }), 1234.5);
  assert.equal(parseNumber('-', { notation: 'en' }), null);
  assert.equal(decodeTable(Buffer.from([0x53, 0x74, 0xe4, 0x64, 0x74, 0x65])), 'Städte');
});

test('parser: city table grouped by municipality key, total and offence groups', () => {
  const t = parseCityTable(CITY, 2025);
  assert.deepEqual([...t.keys()], ['11000000', '03241001']);
  const h = t.get('03241001')!;
  assert.equal(h.city_name, 'Hannover, Landeshauptstadt');
  assert.deepEqual(h.total, { cases: 60512, per_100k_inhabitants: 11296.8, solved_pct: 59.5, suspects: 21877 });
  assert.deepEqual(
    h.offences.map((o) => [o.key, o.cases]),
    [
      ['------', 60512],
      ['892000', 2611],
      ['***300', 4118],
    ],
  );
  // other years' wording of the same columns
  const renamed = CITY.replace('erfasste Faelle;HZ;', 'Anzahl erfasste Fälle;Häufigkeitszahl;').replace('Aufklaerungsquote in %', 'AQ');
  assert.deepEqual(parseCityTable(renamed, 2025).get('03241001')!.total, h.total);
  assert.throws(() => parseCityTable(ZR, 2023), /header row/);
  assert.throws(() => parseCityTable('<html></html>', 2025), /header row/);
});

test('crime-stats: no_data before the ingest; the job finds the newest year and stores per city', async () => {
  const before = await ctx.app.get('/api/v1/cities/hannover/crime-stats');
  assert.equal(at(before.json, 'meta.source_status'), 'no_data');
  assert.match(str(before.json, 'meta.reason'), /not been ingested/);
  assert.equal(fake.count(PKS_BASE), 0, 'request paths never download');

  const meta = await ingestCrimeStats(ctx.app.rt, () => {}, NOW);
  assert.equal(meta.report_year, 2025);
  assert.equal(new URL(fake.requests.at(-1)!.url, 'http://x').searchParams.get('__blob'), 'publicationFile');

  const r = await ctx.app.get('/api/v1/cities/hannover/crime-stats');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.report_year'), 2025);
  assert.equal(at(r.json, 'data.total.per_100k_inhabitants'), 11296.8);
  assert.equal(at(r.json, 'meta.credit'), 'PKS Bundeskriminalamt, Berichtsjahr 2025');
  assert.match(str(r.json, 'attribution.text'), /PKS Bundeskriminalamt/);

  // a city missing from the table is no_data, never a district or another city's figure
  const kiel = await ctx.app.get('/api/v1/cities/kiel/crime-stats');
  assert.equal(at(kiel.json, 'meta.source_status'), 'no_data');
  assert.match(str(kiel.json, 'meta.reason'), /01002000/);

  const cmp = await ctx.app.get('/api/v1/compare?cities=berlin,hannover&resource=crime-stats');
  const berlin = list<{ city: string }>(cmp.json, 'data').find((i) => i.city === 'berlin');
  assert.equal(at(berlin, 'data.total.cases'), 536695);
  assert.equal(at(berlin, 'data.offences'), undefined);
});

test('crime-stats: a malformed table fails the job and keeps what was stored; no year at all is an error', async () => {
  await ingestCrimeStats(ctx.app.rt, () => {}, NOW);
  fake.get(PKS_CITY_TABLE, { body: '<!DOCTYPE html><title>Fehler</title>', headers: { 'content-type': 'text/html' } });
  await assert.rejects(
    ingestCrimeStats(ctx.app.rt, () => {}, NOW),
    /header row/,
  );
  assert.equal(at((await ctx.app.get('/api/v1/cities/hannover/crime-stats')).json, 'data.total.cases'), 60512);
  await assert.rejects(
    ingestCrimeStats(ctx.app.rt, () => {}, new Date('2030-06-01T12:00:00+02:00')),
    /no PKS city table/,
  );
});

test('crime-stats: 404 unknown city, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/crime-stats');
  await expectDisabled({ fake, env: { BKA_PKS_ENABLED: 'false' }, path: '/api/v1/cities/hannover/crime-stats' });
});
