import { at, list, num, str } from './helpers/json.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled } from './helpers/status-rules.ts';
import { HAMBURG_CSV, LEIPZIG_WFS, MUENCHEN_FILE, MUENCHEN_PACKAGE, MUENCHEN_WFS, registerBikeCounters } from './fixtures/bike-counters/routes.ts';
import { precomputeBikeCounts } from '../src/jobs/bike-counts-precompute.ts';
import { jobsFor } from '../src/jobs/registry.ts';
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
  assert.deepEqual(res, { stored: ['hamburg', 'leipzig', 'muenchen'], failed: [] });

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

test('bike-counts: cities without an open counting feed are not_covered with the covered cities', async () => {
  const r = await ctx.app.get(path('berlin'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(list<string>(r.json, 'meta.covered_cities'), ['hamburg', 'leipzig', 'muenchen']);
});

test('bike-counts: a malformed feed fails only its city, which keeps its stored stations; all feeds failing fails the run', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    await precomputeBikeCounts(app.rt, () => {}, NOW);
    fake.get(LEIPZIG_WFS, { body: '<html>Wartungsarbeiten</html>', headers: { 'content-type': 'text/html' } });
    fake.get(MUENCHEN_WFS, { json: { type: 'FeatureCollection' } });
    const lines: string[] = [];
    const res = await precomputeBikeCounts(app.rt, (l) => lines.push(l), NOW);
    assert.deepEqual(res, { stored: ['hamburg'], failed: ['leipzig', 'muenchen'] });
    assert.ok(lines.some((l) => /leipzig failed: .*not JSON/.test(l)));
    assert.ok(lines.some((l) => /muenchen failed: .*feature collection/.test(l)));
    const le = await app.get(path('leipzig'));
    assert.equal(at(le.json, 'meta.source_status'), 'ok');
    assert.equal(num(le.json, 'data.0.latest_day_count') > 0, true);
    assert.ok(!le.text.includes('Wartungsarbeiten'));

    fake.get(HAMBURG_CSV, { body: 'Gurlittinsel;;\r\nirgendwas\r\n' });
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

test('bike-counts: the type names its nightly job, which is registered', () => {
  const dt = CATALOG.all.find((t) => t.type === 'bike-counts')!;
  assert.equal(dt.job, 'bike-counts-precompute');
  const job = jobsFor({ gtfsRtPollIntervalS: 30 }).find((j) => j.name === dt.job);
  assert.ok(job);
  assert.equal(job.intervalMs, 24 * 3600 * 1000);
});

test('bike-counts: BIKE_COUNTERS_ENABLED=false is disabled', async () => {
  await expectDisabled({ fake, env: { BIKE_COUNTERS_ENABLED: 'false' }, path: path('leipzig'), upstreamPrefix: LEIPZIG_WFS });
});
