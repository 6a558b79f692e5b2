import { at, list, num, str } from './helpers/json.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled } from './helpers/status-rules.ts';
import {
  BERLIN_XLSX,
  HAMBURG_CSV,
  LEIPZIG_WFS,
  MUENCHEN_FILE,
  MUENCHEN_PACKAGE,
  MUENCHEN_WFS,
  XLSX_TYPE,
  register as registerBikeCounters,
} from './fixtures/bike-counters/routes.ts';
import { BERLIN_WORKBOOK_FILE, berlinWorkbook } from './fixtures/bike-counters/berlin-workbook.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { excelWallClock } from '../src/sources/bike-counters/berlin.ts';
import { bikeCountsPrecompute, precomputeBikeCounts } from '../src/jobs/bike-counts-precompute.ts';
import { jobsOf } from '../src/core/forms.ts';
import { CATALOG } from '../src/catalog/index.ts';

const ctx = useFakeApp(registerBikeCounters);
const { fake } = ctx;
const NOW = new Date('2026-11-25T02:00:00Z');
const path = (slug: string) => `/api/v1/cities/${slug}/bike-counts`;

type Station = {
  name: string;
  latest_day: string;
  latest_day_count: number;
  last_7_days_total: number;
  days_counted: number;
  last_7_days: { date: string; count: number }[];
};
const byName = (json: unknown) => new Map(list<Station>(json, 'data').map((s) => [s.name, s]));

test('bike-counts: no_data before the first precompute, never fetched on request', async () => {
  const r = await ctx.app.get(path('hamburg'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /precomputed/);
  assert.equal(fake.count(HAMBURG_CSV), 0);
});

test('bike-counts: the nightly job reads each city feed; requests then answer from the store', async () => {
  const res = await precomputeBikeCounts(ctx.app.rt, () => {}, NOW);
  assert.deepEqual(res, { stored: ['berlin', 'hamburg', 'leipzig', 'muenchen'], failed: [] });
  assert.equal(fake.count(BERLIN_XLSX), 1);

  // Hamburg: Windows-1252 CSV of hourly counts; 24.11. is still being counted (up to 09:00) and left out.
  const hh = await ctx.app.get(path('hamburg'));
  assert.equal(at(hh.json, 'meta.source_status'), 'ok');
  const g = list<Station & { lat: number; resolution: string; license: string; id: string }>(hh.json, 'data');
  assert.equal(g.length, 1);
  assert.equal(g[0]!.name, 'Gurlittinsel');
  assert.equal(g[0]!.id, 'hamburg-dauerzaehlstellen-rad:gurlittinsel');
  assert.equal(g[0]!.latest_day, '2026-11-23');
  assert.equal(g[0]!.latest_day_count, 2558);
  assert.equal(g[0]!.last_7_days_total, 18210);
  assert.equal(g[0]!.days_counted, 7);
  assert.equal(g[0]!.last_7_days[0]!.date, '2026-11-17');
  assert.equal(g[0]!.resolution, 'hour');
  assert.equal(g[0]!.lat, 53.55924);
  assert.match(g[0]!.license, /DL-DE\/BY 2\.0/);
  assert.equal(at(hh.json, 'meta.latest_day'), '2026-11-23');
  assert.match(str(hh.json, 'attribution.text'), /Hamburg/);

  // Leipzig: daily layer, UTM 33N converted; a station with a missing day counts 6 of 7.
  const le = await ctx.app.get(path('leipzig'));
  const l = byName(le.json);
  const manet = l.get('Manetstraße') as Station & { lat: number; lon: number };
  assert.equal(manet.latest_day, '2026-10-24');
  assert.equal(manet.latest_day_count, 3440);
  assert.equal(manet.last_7_days_total, 28636);
  // Eco-Visio places the same counter at 51.33563/12.3676; its points are rounded to tens of metres.
  assert.ok(Math.abs(manet.lat - 51.33563) < 5e-4 && Math.abs(manet.lon - 12.3676) < 5e-4, `${manet.lat},${manet.lon}`);
  const semmel = l.get('Semmelweisstraße')!;
  assert.equal(semmel.latest_day, '2026-10-23');
  assert.equal(semmel.latest_day_count, 2195);
  assert.equal(semmel.days_counted, 6);
  assert.equal(semmel.last_7_days_total, 15588);
  const wfs = fake.requests.find((q) => q.url.startsWith(LEIPZIG_WFS))!;
  assert.match(decodeURIComponent(wfs.url), /typeNames=OpenData:radverkehr_dauerzaehlstelle_anzahl_tag_zeitreihe/);
  assert.match(decodeURIComponent(wfs.url.replace(/\+/g, ' ')), /sortBy=phenomenontime DESC/);

  // München: stations joined by name with the two newest monthly files; the window spans both.
  const mu = await ctx.app.get(path('muenchen'));
  const m = byName(mu.json);
  assert.equal(m.size, 6);
  const erhardt = m.get('Erhardtstraße')!;
  assert.equal(erhardt.latest_day, '2026-11-03');
  assert.equal(erhardt.latest_day_count, 2805);
  assert.equal(erhardt.last_7_days_total, 11803);
  assert.deepEqual(erhardt.last_7_days.map((d) => d.date).slice(0, 2), ['2026-10-28', '2026-10-29']);
  const hirsch = m.get('Hirschgarten')!;
  assert.equal(hirsch.days_counted, 6);
  assert.equal(hirsch.last_7_days_total, 11670);
  assert.equal(fake.count(MUENCHEN_FILE('rad_2026_09_tage.csv')), 0);
  assert.equal(fake.count(MUENCHEN_FILE('rad_2026_11_tage.csv')), 1);
  assert.equal(fake.count(MUENCHEN_WFS), 1);

  // Answers come from the store: no upstream call on request.
  const hits = fake.requests.length;
  await ctx.app.get(path('muenchen'));
  assert.equal(fake.requests.length, hits);
});

test("bike-counts: Berlin's workbook: the newest year sheet joined with Standortdaten, hours summed to days", async () => {
  await precomputeBikeCounts(ctx.app.rt, () => {}, NOW);
  const r = await ctx.app.get(path('berlin'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.latest_day'), '2025-12-31');
  assert.equal(at(r.json, 'meta.counted_until'), '2025-12-31T23:00:00+01:00');
  assert.match(str(r.json, 'attribution.text'), /Berlin/);
  const b = list<Station & { id: string; lat: number | null; lon: number | null; resolution: string; license: string }>(r.json, 'data');
  const by = new Map(b.map((s) => [s.id, s]));
  // Alberichstraße's column is empty all year: no station without a count.
  assert.deepEqual([...by.keys()].sort(), [
    'berlin-radzaehlstellen:02-MI-JAN-N',
    'berlin-radzaehlstellen:02-MI-JAN-S',
    'berlin-radzaehlstellen:12-PA-SCH',
    'berlin-radzaehlstellen:27-RE-MAR',
  ]);
  // Counter n counts n·(d − 19)·10 + h at hour h of December day d: a day sums to 240·n·(d − 19) + 276.
  const jan = by.get('berlin-radzaehlstellen:02-MI-JAN-N')!;
  assert.equal(jan.name, 'Jannowitzbrücke Nord');
  assert.equal(jan.lat, 52.5134);
  assert.equal(jan.lon, 13.4176);
  assert.equal(jan.latest_day, '2025-12-31');
  assert.equal(jan.latest_day_count, 240 * 12 + 276);
  assert.equal(jan.days_counted, 7);
  assert.equal(jan.last_7_days_total, 240 * (6 + 7 + 8 + 9 + 10 + 11 + 12) + 7 * 276);
  assert.deepEqual(jan.last_7_days[0], { date: '2025-12-25', count: 240 * 6 + 276 });
  assert.equal(jan.resolution, 'hour');
  assert.match(jan.license, /DL-DE\/Zero 2\.0/);
  // Schwedter Steg stops on 29 December after 14:00: that day is incomplete, 28 December is its newest day.
  const sch = by.get('berlin-radzaehlstellen:12-PA-SCH')!;
  assert.equal(sch.latest_day, '2025-12-28');
  assert.equal(sch.latest_day_count, 240 * 3 * 9 + 276);
  assert.equal(sch.last_7_days[0]!.date, '2025-12-22');
  // A counter without a Standortdaten row keeps its code as name and has no position.
  const mar = by.get('berlin-radzaehlstellen:27-RE-MAR')!;
  assert.equal(mar.name, '27-RE-MAR');
  assert.equal(mar.lat, null);
  // The 2024 sheet (counts above 5000 an hour) is not read.
  assert.ok(b.every((s) => s.last_7_days.every((d) => d.date.startsWith('2025-'))));
});

test('bike-counts: the committed Berlin workbook is what its generator builds', () => {
  assert.ok(fixture(`bike-counters/${BERLIN_WORKBOOK_FILE}`).equals(berlinWorkbook()));
});

test('bike-counts: Excel serial days are read as wall-clock hours (1900 and 1904 systems)', () => {
  assert.deepEqual(excelWallClock(46022 + 23 / 24, false), { date: '2025-12-31', hour: 23, minute: 0 });
  // A serial stored with float noise still lands on its hour; summer time is a wall-clock hour too.
  assert.deepEqual(excelWallClock(45746.12499999999, false), { date: '2025-03-30', hour: 3, minute: 0 });
  assert.deepEqual(excelWallClock(44560, true), { date: '2025-12-31', hour: 0, minute: 0 });
});

test('bike-counts: a malformed Berlin workbook fails only Berlin, which keeps its stored counters', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    await precomputeBikeCounts(app.rt, () => {}, NOW);
    const before = (await app.get(path('berlin'))).text;
    const good = berlinWorkbook();
    const cases: [string, Buffer, RegExp][] = [
      ['a ZIP cut short', good.subarray(0, Math.floor(good.length / 2)), /not a ZIP archive/],
      ['no Standortdaten sheet', berlinWorkbook({ withoutLocations: true }), /without the sheet Standortdaten/],
      ['a DOCTYPE in a part', berlinWorkbook({ doctype: true }), /(DOCTYPE|ENTITY) declaration refused/],
      ['an HTML error page', Buffer.from('<html>Wartungsarbeiten</html>'), /not a ZIP archive/],
    ];
    for (const [what, body, reason] of cases) {
      fake.get(BERLIN_XLSX, { body, headers: { 'content-type': XLSX_TYPE } });
      const lines: string[] = [];
      const res = await precomputeBikeCounts(app.rt, (l) => lines.push(l), NOW);
      assert.ok(res.failed.includes('berlin') && res.stored.includes('hamburg'), what);
      assert.ok(
        lines.some((l) => /berlin failed: /.test(l) && reason.test(l)),
        `${what}: ${lines.join(' | ')}`,
      );
      const r = await app.get(path('berlin'));
      assert.equal(r.status, 200, what);
      // The same stored stations; only the answer's own time (fetched_at, whole seconds) may have moved on.
      assert.equal(withoutFetchedAt(r.text), withoutFetchedAt(before), what);
    }
  } finally {
    await app.close();
  }
});

test('bike-counts: cities without an open counting feed are not_covered with the covered cities', async () => {
  const r = await ctx.app.get(path('koeln'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(list<string>(r.json, 'meta.covered_cities'), ['berlin', 'hamburg', 'leipzig', 'muenchen']);
});

test('bike-counts: a malformed feed fails only its city, which keeps its stored stations; all feeds failing fails the run', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    await precomputeBikeCounts(app.rt, () => {}, NOW);
    fake.get(LEIPZIG_WFS, { body: '<html>Wartungsarbeiten</html>', headers: { 'content-type': 'text/html' } });
    fake.get(MUENCHEN_WFS, { json: { type: 'FeatureCollection' } });
    const lines: string[] = [];
    const res = await precomputeBikeCounts(app.rt, (l) => lines.push(l), NOW);
    assert.deepEqual(res, { stored: ['berlin', 'hamburg'], failed: ['leipzig', 'muenchen'] });
    assert.ok(lines.some((l) => /leipzig failed: .*not JSON/.test(l)));
    assert.ok(lines.some((l) => /muenchen failed: .*München counting station layer \$\.features: expected array/.test(l)));
    const le = await app.get(path('leipzig'));
    assert.equal(at(le.json, 'meta.source_status'), 'ok');
    assert.equal(num(le.json, 'data.0.latest_day_count') > 0, true);
    assert.ok(!le.text.includes('Wartungsarbeiten'));

    fake.get(HAMBURG_CSV, { body: 'Gurlittinsel;;\r\nirgendwas\r\n' });
    fake.get(BERLIN_XLSX, { body: '<html>Wartungsarbeiten</html>', headers: { 'content-type': 'text/html' } });
    await assert.rejects(
      precomputeBikeCounts(app.rt, () => {}, NOW),
      /every city feed failed/,
    );
    assert.equal(at((await app.get(path('hamburg'))).json, 'meta.source_status'), 'ok');
  } finally {
    await app.close();
  }
});

test('bike-counts: a feed without any counted day is no_data with the reason', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    fake.get(HAMBURG_CSV, { body: Buffer.from('Gurlittinsel;;\r\nDatum;Zeitraum (von);Anzahl Fahrräder\r\n', 'latin1') });
    await precomputeBikeCounts(app.rt, () => {}, NOW);
    const r = await app.get(path('hamburg'));
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'no_data');
    assert.match(str(r.json, 'meta.reason'), /no station with a count/);
  } finally {
    await app.close();
  }
});

test("bike-counts: early in January, before the new year's package exists, München reads last year's", async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    const res = await precomputeBikeCounts(app.rt, () => {}, new Date('2027-01-02T02:00:00Z'));
    assert.ok(res.stored.includes('muenchen'));
    const asked = fake.requests.filter((q) => q.url.startsWith(MUENCHEN_PACKAGE)).map((q) => new URL(q.url, 'http://x').searchParams.get('id'));
    assert.deepEqual(asked, ['daten-der-raddauerzaehlstellen-muenchen-2027', 'daten-der-raddauerzaehlstellen-muenchen-2026']);
    assert.equal(at((await app.get(path('muenchen'))).json, 'data.0.latest_day'), '2026-11-03');
  } finally {
    await app.close();
  }
});

test('bike-counts: the type names its nightly job as a value, and the catalog runs it', () => {
  const dt = CATALOG.all.find((t) => t.type === 'bike-counts')!;
  assert.deepEqual(jobsOf(dt), [bikeCountsPrecompute]);
  assert.deepEqual(CATALOG.jobs.get(bikeCountsPrecompute), [dt]);
  assert.equal(bikeCountsPrecompute.intervalMs, 24 * 3600 * 1000);
});

test('bike-counts: BIKE_COUNTERS_ENABLED=false is disabled', async () => {
  await expectDisabled({ fake, env: { BIKE_COUNTERS_ENABLED: 'false' }, path: path('leipzig'), upstreamPrefix: LEIPZIG_WFS });
});

function withoutFetchedAt(body: string): string {
  return body.replace(/"fetched_at":"[^"]*"/, '"fetched_at":"-"');
}
