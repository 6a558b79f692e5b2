import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { at, list, obj, str } from './helpers/json.ts';
import { must, nth } from './helpers/must.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerOpenHolidays } from './fixtures/openholidays/routes.ts';
import { appliesTo, parseHolidayList } from '../src/sources/openholidays/parse.ts';
import { partialStateHolidays } from '../src/sources/openholidays/adapters.ts';
import { afterEaster } from '../src/sources/openholidays/easter.ts';
import { localSubdivisionsOf, partialStateHolidaysOf } from '../src/cities/local-holidays.ts';
import { CITIES, CITY_BY_SLUG } from '../src/cities/register.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { HolidaysRecord } from '../src/core/records/city-base.ts';
import { published } from '../src/core/schema.ts';

const json = (name: string): unknown => JSON.parse(fixture(`openholidays/${name}`).toString('utf8'));
const ctx = useFakeApp(registerOpenHolidays);
const { fake } = ctx;

test('parser: the real OpenHolidays recordings (public and school): German names, dates, scope, subdivisions', () => {
  const pub = parseHolidayList(json('PublicHolidays_AT-WI_2026_format-sample.json'));
  assert.equal(pub.length, 13);
  assert.deepEqual(pub[0], {
    id: 'efbb30b0-dc2b-4811-be55-55f735ef327a',
    name: 'Neujahr',
    start: '2026-01-01',
    end: '2026-01-01',
    scope: 'national',
    nationwide: true,
    half_day: false,
    subdivisions: [],
    note: null,
  });
  const school = parseHolidayList(json('SchoolHolidays_AT-WI_2026_format-sample.json'));
  const semester = school.find((h) => h.name === 'Semesterferien')!;
  assert.deepEqual([semester.start, semester.end, semester.scope, semester.nationwide], ['2026-02-02', '2026-02-07', 'regional', false]);
  assert.deepEqual(semester.subdivisions, ['AT-NÖ', 'AT-WI']);
  assert.equal(appliesTo(semester, 'AT-WI', []), true);
  assert.equal(appliesTo(semester, 'AT-TI', []), false);
  assert.equal(nth(school, 0).start, '2025-12-24', 'a holiday starting in the previous year keeps its dates');
});

test('parser: local holidays apply only where the city lies; a non-list body and an entry without a date are broken answers', () => {
  const local = nth(parseHolidayList([{ startDate: '2026-08-08', regionalScope: 'Local', nationwide: false, subdivisions: [{ code: 'DE-BY-AU' }] }]), 0);
  assert.equal(appliesTo(local, 'DE-BY', []), false);
  assert.equal(appliesTo(local, 'DE-BY', ['DE-BY-AU']), true);
  assert.throws(() => parseHolidayList({ status: 400 }), UpstreamError);
  assert.throws(() => parseHolidayList([{ name: [{ language: 'DE', text: 'x' }] }]), /startDate/);
});

test('GET holidays for Augsburg: state and local public holidays, school holidays, two years, ODbL attribution', async () => {
  const r = await ctx.app.get('/api/v1/cities/augsburg/holidays');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'attribution.license'), 'ODbL-1.0');
  const d = obj(r.json, 'data');
  assert.ok(published(HolidaysRecord()).safeParse(d).success, 'the published schema (with deprecated twins) accepts it');
  assert.equal(d.subdivision_code, 'DE-BY');
  assert.equal(d.source, 'openholidays');
  assert.equal(at(r.json, 'meta.fallback_for'), undefined);
  assert.equal(at(r.json, 'meta.answered_by'), 'openholidays');
  assert.deepEqual(d.local_subdivision_codes, ['DE-BY-AU']);
  const year = new Date().getFullYear();
  assert.equal(d.valid_from, `${year}-01-01`);
  assert.equal(d.valid_to, `${year + 1}-12-31`);
  const publicHolidays = list<{ name: string; start: string; scope: string; note: string | null }>(d, 'public_holidays');
  const peace = publicHolidays.filter((h) => h.name === 'Friedensfest');
  assert.deepEqual(
    peace.map((h) => h.start),
    ['2026-08-08', '2027-08-08'],
  );
  assert.equal(nth(peace, 0).scope, 'local');
  assert.deepEqual(at(r.json, 'meta.local.subdivisions'), [{ code: 'DE-BY-AU', name: 'Augsburg', category: 'Gemeinde' }]);
  assert.match(str(r.json, 'meta.local.note'), /DE-BY-AU \(Augsburg\) included/);
  assert.deepEqual(at(r.json, 'meta.local.partial_state_holidays'), [], 'Bavaria has no partial-state holiday in the table');
  const assumption = must(
    publicHolidays.find((h) => h.name === 'Mariä Himmelfahrt'),
    'Mariä Himmelfahrt',
  );
  assert.match(str(assumption, 'note'), /katholisch/);
  assert.equal(publicHolidays.length, 28);
  assert.equal(at(d, 'school_holidays.1.name'), 'Winterferien');
  const starts = publicHolidays.map((h) => h.start);
  assert.deepEqual(starts, [...starts].sort(), 'sorted by date');
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.equal(q.get('subdivisionCode'), 'DE-BY');
  assert.equal(q.get('languageIsoCode'), 'DE');
});

test('GET holidays for München: the same state without Augsburg’s local holiday', async () => {
  const r = await ctx.app.get('/api/v1/cities/muenchen/holidays');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(at(r.json, 'data.local_subdivision_codes'), []);
  assert.equal(at(r.json, 'data.public_holidays.length'), 26);
  const days = list<{ subdivisions: string[]; start: string; name: string }>(r.json, 'data.public_holidays');
  assert.ok(!days.some((h) => h.subdivisions.includes('DE-BY-AU')));
  assert.ok(!days.some((h) => h.start.endsWith('-08-08')), 'no Peace Festival on 8 August');
  assert.deepEqual(at(r.json, 'meta.local.subdivisions'), []);
  assert.match(str(r.json, 'meta.local.note'), /no OpenHolidays subdivision below DE-BY covers München: only nationwide and state-wide public holidays apply$/);
});

test('GET holidays for a Saxon and a Thuringian city: no Corpus Christi, and meta.local says why', async () => {
  for (const [slug, state, area] of [
    ['dresden', 'DE-SN', /Dresden \(AGS 14612000\) lies outside Landkreis Bautzen/],
    ['erfurt', 'DE-TH', /Erfurt \(AGS 16051000\) lies outside Landkreis Eichsfeld, Unstrut-Hainich-Kreis, Wartburgkreis/],
  ] as const) {
    const r = await ctx.app.get(`/api/v1/cities/${slug}/holidays`);
    assert.equal(at(r.json, 'meta.source_status'), 'ok', slug);
    assert.equal(at(r.json, 'data.subdivision_code'), state);
    const names = list<{ name: string }>(r.json, 'data.public_holidays').map((h) => h.name);
    assert.ok(names.includes('Reformationstag'), `${slug}: state holidays present`);
    assert.ok(!names.includes('Fronleichnam'), `${slug}: no Corpus Christi`);
    assert.equal(names.length, 22);
    assert.deepEqual(at(r.json, 'meta.local.subdivisions'), []);
    const partial = list<{ name: string; applies: boolean; reason: string }>(r.json, 'meta.local.partial_state_holidays');
    assert.equal(partial.length, 1);
    assert.equal(nth(partial, 0).name, 'Fronleichnam');
    assert.equal(nth(partial, 0).applies, false);
    assert.match(nth(partial, 0).reason, area);
  }
  const buss = list<{ name: string }>((await ctx.app.get('/api/v1/cities/leipzig/holidays')).json, 'data.public_holidays');
  assert.ok(
    buss.some((h) => h.name === 'Buß- und Bettag'),
    'Saxony keeps Repentance Day',
  );
});

test('subdivision filter on an OpenHolidays answer: a subdivision-restricted holiday applies only to the city whose AGS the subdivision covers', () => {
  const by = parseHolidayList(json('PublicHolidays_DE-BY_2026-2027.json'));
  const peace = must(
    by.find((h) => h.name === 'Friedensfest'),
    'Friedensfest',
  );
  const corpus = must(
    by.find((h) => h.name === 'Fronleichnam'),
    'Fronleichnam',
  );
  assert.deepEqual(peace.subdivisions, ['DE-BY-AU']);
  const codes = (slug: string) => localSubdivisionsOf(CITY_BY_SLUG.get(slug)!).map((s) => s.code);
  assert.deepEqual(codes('augsburg'), ['DE-BY-AU']);
  assert.deepEqual(codes('muenchen'), []);
  assert.equal(appliesTo(peace, 'DE-BY', codes('augsburg')), true);
  assert.equal(appliesTo(peace, 'DE-BY', codes('muenchen')), false);
  assert.equal(appliesTo(corpus, 'DE-BY', codes('muenchen')), true, 'a holiday of several states applies in each');
  assert.equal(appliesTo(corpus, 'DE-SN', []), false);
  // The mapping is by AGS: only Augsburg among the 84 lies in a subdivision below its state.
  assert.deepEqual(
    CITIES.filter((c) => localSubdivisionsOf(c).length > 0).map((c) => c.slug),
    ['augsburg'],
  );
  assert.deepEqual(localSubdivisionsOf({ ags: '09761000', state: 'SN' }), [], 'a subdivision belongs to its parent state');
});

test("partial-state holidays: a city where Corpus Christi applies gets it on the source's own date; none of the 84 does", () => {
  const by = parseHolidayList(json('PublicHolidays_DE-BY_2026-2027.json'));
  const sourceDays = by.filter((h) => h.name === 'Fronleichnam').map((h) => h.start);
  assert.deepEqual([afterEaster(2026, 60), afterEaster(2027, 60)], sourceDays, 'Easter + 60 matches OpenHolidays');
  // Municipalities the register does not hold (AGS shapes only): one in Eichsfeld, one in Landkreis Bautzen.
  const eichsfeld = { name: 'Gemeinde im Eichsfeld', ags: '16061999', state: 'TH' };
  const bautzen = { name: 'Gemeinde im Landkreis Bautzen', ags: '14625999', state: 'SN' };
  const [inEichsfeld] = partialStateHolidaysOf(eichsfeld);
  assert.equal(inEichsfeld?.applies, true);
  const added = partialStateHolidays(partialStateHolidaysOf(eichsfeld), [2026, 2027], []);
  assert.deepEqual(
    added.map((h) => [h.name, h.start, h.scope, h.nationwide]),
    [
      ['Fronleichnam', '2026-06-04', 'local', false],
      ['Fronleichnam', '2027-05-27', 'local', false],
    ],
  );
  assert.deepEqual(partialStateHolidays(partialStateHolidaysOf(eichsfeld), [2026], by), [], 'not twice when the source lists it');
  const [inBautzen] = partialStateHolidaysOf(bautzen);
  assert.equal(inBautzen?.applies, false, 'only the municipalities named for it');
  assert.match(inBautzen?.reason ?? '', /not among the municipalities/);
  assert.deepEqual(
    CITIES.filter((c) => partialStateHolidaysOf(c).some((v) => v.applies)).map((c) => c.slug),
    [],
  );
  const saxonAndThuringian = CITIES.filter((c) => c.state === 'SN' || c.state === 'TH');
  assert.ok(saxonAndThuringian.length >= 5);
  for (const c of saxonAndThuringian) assert.equal(partialStateHolidaysOf(c).length, 1, `${c.slug} is checked`);
});

test('GET holidays: empty lists from the source are no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/holidays');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /DE-SH/);
});

test('GET holidays: OpenHolidays broken (garbage, 500): public holidays from Nager.Date, marked as the stand-in', async () => {
  fake.get('/PublicHolidays', { body: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } });
  const r = await ctx.app.get('/api/v1/cities/berlin/holidays');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.source'), 'nager-date');
  assert.equal(at(r.json, 'meta.answered_by'), 'nager-date');
  assert.equal(at(r.json, 'meta.fallback_for'), 'openholidays');
  assert.equal(at(r.json, 'attribution.source'), 'Nager.Date');
  assert.equal(at(r.json, 'attribution.license'), 'MIT');
  assert.deepEqual(at(r.json, 'data.school_holidays'), []);
  const names = list<{ name: string }>(r.json, 'data.public_holidays').map((h) => h.name);
  assert.ok(names.includes('Internationaler Frauentag'), 'Berlin keeps Women’s Day');
  assert.ok(!names.includes('Fronleichnam'), 'not a Berlin holiday');
  assert.equal(at(r.json, 'data.public_holidays.length'), 20);
  assert.equal(fake.count('/api/v3/PublicHolidays/'), 2, 'current and next year');
  fake.get('/SchoolHolidays', { status: 500, body: 'error' });
  const s = await ctx.app.get('/api/v1/cities/hamburg/holidays');
  assert.equal(at(s.json, 'data.source'), 'nager-date');
});

test('GET holidays: OpenHolidays down until its breaker opens: Nager.Date answers with its own attribution, breaker and status', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    fake.get('/PublicHolidays', { status: 500, body: 'error' });
    fake.get('/SchoolHolidays', { status: 500, body: 'error' });
    const cities = ['bonn', 'koeln', 'aachen', 'essen', 'bochum'];
    for (const c of cities) {
      const r = await app.get(`/api/v1/cities/${c}/holidays`);
      assert.equal(r.status, 200, c);
      assert.equal(at(r.json, 'meta.answered_by'), 'nager-date');
      assert.equal(at(r.json, 'meta.source'), 'nager-date');
      assert.equal(at(r.json, 'attribution.license'), 'MIT');
      assert.match(str(r.json, 'attribution.text'), /Nager\.Date/);
    }
    const sources = list<{ source: string; breaker_state: string; last_success: string | null; fallback_for: string[] }>(
      (await app.get('/api/v1/sources?limit=all')).json,
      'data',
    );
    const open = sources.find((s) => s.source === 'openholidays');
    const nager = sources.find((s) => s.source === 'nager-date');
    assert.equal(open?.breaker_state, 'OPEN');
    assert.equal(nager?.breaker_state, 'CLOSED');
    assert.ok(nager?.last_success);
    assert.deepEqual(nager?.fallback_for, ['holidays']);
    // OpenHolidays' breaker is open: the next city is answered by Nager.Date without asking OpenHolidays.
    const asked = fake.count('/PublicHolidays');
    const r = await app.get('/api/v1/cities/dortmund/holidays');
    assert.equal(at(r.json, 'meta.answered_by'), 'nager-date');
    assert.equal(fake.count('/PublicHolidays'), asked);
    const health = (await app.get('/api/v1/health')).json;
    assert.deepEqual(at(health, 'data.sources.open_breakers'), ['openholidays']);
  } finally {
    await app.close();
  }
});

test('GET holidays: both sources broken or down with nothing cached is a 503 problem, never a 500', async () => {
  fake.get('/PublicHolidays', { body: 'not json' });
  fake.get(/^\/api\/v3\/PublicHolidays\/\d{4}\/DE$/, { status: 500, body: 'error' });
  const r = await ctx.app.get('/api/v1/cities/bremen/holidays');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  await expectUnavailable({ fake, path: '/api/v1/cities/dresden/holidays' });
});

test('GET holidays: toggle off is disabled; unknown city 404', async () => {
  await expectDisabled({ fake, env: { OPENHOLIDAYS_ENABLED: 'false' }, path: '/api/v1/cities/augsburg/holidays' });
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/holidays');
});
