import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at, list, obj, str } from './helpers/json.ts';
import { must, nth } from './helpers/must.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { registerOpenHolidays } from './fixtures/openholidays/routes.ts';
import { appliesTo, parseHolidayList } from '../src/sources/openholidays/parse.ts';
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
  assert.equal(at(r.json, 'meta.fallback'), undefined);
  assert.deepEqual(d.local_subdivision_codes, ['DE-BY-AU']);
  const year = new Date().getFullYear();
  assert.equal(d.valid_from, `${year}-01-01`);
  assert.equal(d.valid_to, `${year + 1}-12-31`);
  const publicHolidays = list<{ name: string; start: string; scope: string; note: string | null }>(d, 'public_holidays');
  const peace = publicHolidays.filter((h) => h.name === 'Augsburger Friedensfest');
  assert.equal(peace.length, 2);
  assert.equal(nth(peace, 0).scope, 'local');
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
  assert.ok(!list<{ subdivisions: string[] }>(r.json, 'data.public_holidays').some((h) => h.subdivisions.includes('DE-BY-AU')));
});

test('GET holidays: empty lists from the source are no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/holidays');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /DE-SH/);
});

test('GET holidays: OpenHolidays broken (garbage, 500): public holidays from Nager.Date, marked as the fallback', async () => {
  fake.get('/PublicHolidays', { body: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } });
  const r = await ctx.app.get('/api/v1/cities/berlin/holidays');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.source'), 'nager-date');
  assert.equal(at(r.json, 'meta.fallback.name'), 'Nager.Date');
  assert.equal(at(r.json, 'meta.fallback.license'), 'MIT');
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
