import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at, list, str } from './helpers/json.ts';
import { must, nth } from './helpers/must.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { register as registerDestinationOne } from './fixtures/destination-one/routes.ts';
import { eventQuery, parseEvents, type Et4Answer } from '../src/sources/destination-one/events.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { EventRecord } from '../src/core/records/places.ts';
import { published } from '../src/core/schema.ts';

const json = (name: string): Et4Answer => JSON.parse(fixture(`destination-one/${name}`).toString('utf8')) as Et4Answer;
const ctx = useFakeApp(registerDestinationOne);
const { fake } = ctx;

test('parser: the real ET2014A recording: title, venue, address, coordinates, next date zoned, image, organiser', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const events = parseEvents(json('search-ET2014A-Event-rudolstadt-limit3-fixture-dates-edited.json'), now);
  assert.equal(events.length, 3);
  const tueftler = events.find((e) => e.title === 'Tüftlerzeit')!;
  assert.deepEqual(
    { venue: tueftler.venue, street: tueftler.street, post_code: tueftler.post_code, place: tueftler.place, organizer: tueftler.organizer },
    { venue: 'Stadtbibliothek Rudolstadt', street: 'Schulplatz 13', post_code: '07407', place: 'Rudolstadt', organizer: 'Stadtbibliothek Rudolstadt' },
  );
  assert.equal(tueftler.start, '2099-12-16T15:00:00+01:00', 'the 2022 dates are past');
  assert.equal(tueftler.upcoming_dates, 1);
  assert.equal(tueftler.lat, 50.72083517505592);
  assert.match(tueftler.image_url ?? '', /^https:\/\/dam\.destination\.one\//);
  assert.equal(tueftler.license, null, 'this licence-key experience states no per-record licence');
  const organ = events.find((e) => e.title?.startsWith('Adventliche Orgelmusik'))!;
  assert.equal(organ.upcoming_dates, 4);
  assert.equal(organ.end, '2099-12-01T20:00:00+01:00');
  for (const e of events) assert.ok(EventRecord().safeParse(e).success);
});

test('parser: when every date is past the first is given; a non-OK status or no items is a broken answer', () => {
  const only = nth(
    parseEvents(
      { status: 'OK', items: [{ title: 'x', timeIntervals: [{ start: '2022-01-20T15:00:00+01:00', end: '2022-01-20T17:00:00+01:00' }] }] },
      new Date(),
    ),
    0,
  );
  assert.deepEqual([only.start, only.upcoming_dates], ['2022-01-20T15:00:00+01:00', 0]);
  assert.throws(() => parseEvents({ status: 'ERROR', items: [] }, new Date()), UpstreamError);
  assert.throws(() => parseEvents({ status: 'OK' }, new Date()), UpstreamError);
  assert.equal(nth(parseEvents({ items: [{ title: 'y', license: 'CC0' }] }, new Date()), 0).license, 'CC0', 'a licence field on the record itself');
  assert.equal(eventQuery('Dresden'), 'city:"Dresden" AND attribute_license:(CC0 OR CC-BY OR CC-BY-SA)');
});

test('GET events for Dresden: openly licensed events with their licence, sorted by next date; the open-data experience is asked', async () => {
  const r = await ctx.app.get('/api/v1/cities/dresden/events');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.length'), 3);
  for (const e of list(r.json, 'data')) assert.ok(published(EventRecord()).safeParse(e).success);
  const market = must(
    list<Record<string, unknown>>(r.json, 'data').find((e) => e.title === 'Dresdner Striezelmarkt'),
    'the Striezelmarkt',
  );
  assert.equal(market.license, 'CC-BY-SA');
  assert.equal(market.post_code, '01067');
  assert.equal(market.plz, '01067', 'deprecated alias added by the normaliser');
  assert.match(str(market, 'start'), /\+01:00$/);
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.equal(q.get('experience'), 'open-data-sachsen-tourismus');
  assert.match(q.get('mode') ?? '', /^next_months,\d+$/);
  assert.match(q.get('q') ?? '', /attribute_license/);
  assert.equal(q.get('licensekey'), null, 'no licence key is sent');
});

test('GET events: no event is no_data; a city without an open-data experience is not_covered', async () => {
  const none = await ctx.app.get('/api/v1/cities/chemnitz/events');
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');
  const other = await ctx.app.get('/api/v1/cities/hamburg/events');
  assert.equal(at(other.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(other.json, 'meta.covered_cities'), ['chemnitz', 'dresden', 'leipzig']);
});

test('GET events: garbage or a dead upstream with nothing cached is a 503 problem', async () => {
  fake.get('/rest.ashx/search/', { body: '<html>Fehler</html>', headers: { 'content-type': 'text/html' } });
  const r = await ctx.app.get('/api/v1/cities/leipzig/events');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  await expectUnavailable({ fake, path: '/api/v1/cities/dresden/events' });
});

test('GET events: toggle off is disabled', async () => {
  await expectDisabled({ fake, env: { DESTINATION_ONE_ENABLED: 'false' }, path: '/api/v1/cities/dresden/events' });
});
