import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerDbTimetables } from './fixtures/db-timetables/routes.ts';
import { register as registerStada } from './fixtures/stada/routes.ts';
import { parseTimetableXml } from '../src/sources/db-timetables/xml.ts';
import { mergeBoard } from '../src/sources/db-timetables/board.ts';
import { planSlot } from '../src/sources/db-timetables/fetch-board.ts';
import { DB_TIMETABLES } from '../src/sources/db-timetables/source.ts';
import { RateGate } from '../src/pipeline/rate-gate.ts';
import { BoundSourceHttp } from '../src/pipeline/source-http.ts';
import { UpstreamClient } from '../src/upstream/client.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { Metrics } from '../src/metrics.ts';
import { SourceHealth } from '../src/pipeline/source-health.ts';
import { MemoryStore } from '../src/store/memory.ts';
import { mainStation } from '../src/sources/stada/stations.ts';
import { nth } from './helpers/must.ts';
import { at, list, str } from './helpers/json.ts';

const BASE = '/db-api-marketplace/apis/timetables/v1';
const CREDS = { DB_CLIENT_ID: 'client-id', DB_API_KEY: 'api-key' };

// StaDa (same credentials) too: the city boards check ?eva= against, and pick main stations from, the station catalog.
const ctx = useFakeApp(
  (f) => {
    registerDbTimetables(f);
    registerStada(f);
  },
  { env: CREDS, keyless: true },
);
const { fake } = ctx;

const plan = () => parseTimetableXml(fixture('db-timetables/plan-8000098-essen-hbf-140103-21.xml').toString());
const changes = () => parseTimetableXml(fixture('db-timetables/fchg-8000098-essen-hbf.xml').toString());

test('parser: plan + fchg join on the stop id: delay, zoned winter times, path, platform, messages', () => {
  const { station, entries } = mergeBoard('departures', [plan()], changes());
  assert.equal(station, 'Essen Hbf');
  const ice = entries.find((e) => e.id === '8363147230318398848-1401031547-13')!;
  assert.equal(ice.name, 'ICE 620');
  assert.equal(ice.line, 'ICE 620');
  assert.equal(ice.long_distance, true);
  assert.equal(ice.planned_time, '2014-01-03T21:18:00+01:00');
  assert.equal(ice.expected_time, '2014-01-03T21:43:00+01:00');
  assert.equal(ice.delay_s, 1500);
  assert.equal(ice.destination, 'Dortmund Hbf');
  assert.deepEqual(ice.via, ['Bochum Hbf']);
  assert.equal(ice.platform, '4');
  assert.equal(ice.realtime, true);
  assert.equal(ice.cancelled, false);
  // stop-level disruption (t=r) plus the departure's delay causes (t=d, code 43/46/48) and free text
  assert.ok(ice.messages.some((m) => m.type === 'disruption' && m.valid_from === '2014-01-03T20:29:00+01:00'));
  assert.deepEqual(
    ice.messages
      .filter((m) => m.type === 'delay_cause')
      .map((m) => m.code)
      .sort(),
    [43, 46, 48],
  );
  // S-Bahn lines keep their line number ("S 3"), umlauts come from numeric character references
  const s3 = entries.find((e) => e.id === '-7292222329020197454-1401032105-7')!;
  assert.equal(s3.line, 'S 3');
  assert.equal(s3.number, '31328');
  assert.equal(s3.destination, 'Oberhausen Hbf');
  assert.ok(s3.via.includes('Mülheim(Ruhr)Hbf'));
  assert.equal(s3.realtime, false);
  assert.equal(s3.expected_time, null);
  // sorted by planned time, every time zoned
  const times = entries.map((e) => Date.parse(e.planned_time!));
  assert.deepEqual(
    times,
    [...times].sort((a, b) => a - b),
  );
  assert.ok(entries.every((e) => /\+01:00$/.test(e.planned_time!)));
});

test('parser: arrivals use the arrival event and the origin; a trip without arrival is left out', () => {
  const { entries } = mergeBoard('arrivals', [plan()], changes());
  const ice = entries.find((e) => e.id === '8363147230318398848-1401031547-13')!;
  assert.equal(ice.origin, 'München Hbf');
  assert.equal(ice.planned_time, '2014-01-03T21:16:00+01:00');
  assert.equal(ice.delay_s, 1500);
  assert.equal(
    entries.some((e) => e.origin === undefined),
    false,
  );
});

test('parser: cancellations and re-instated trips from the change list (cs=c / cs=p with clt)', () => {
  const { entries } = mergeBoard('departures', [], changes());
  const cancelled = entries.find((e) => e.id === '3729885488909644468-1401031813-25')!;
  assert.equal(cancelled.cancelled, true);
  assert.equal(cancelled.cancelled_at, '2014-01-03T20:13:00+01:00');
  assert.equal(cancelled.planned_time, '2014-01-03T19:26:00+01:00');
  const reinstated = entries.find((e) => e.id === '-1228070310295050300-1401031637-7')!;
  assert.equal(reinstated.cancelled, false);
  // outside the requested window a change-only trip is dropped
  const windowed = mergeBoard('departures', [], changes(), { from: new Date('2014-01-03T20:00:00Z'), to: new Date('2014-01-03T21:00:00Z') });
  assert.ok(windowed.entries.every((e) => Date.parse(e.expected_time ?? e.planned_time!) >= Date.parse('2014-01-03T20:00:00Z')));
});

test('parser: summer times carry +02:00, the line sits on the event, empty hours and DOCTYPEs', () => {
  const xml = `<?xml version='1.0' encoding='UTF-8'?><timetable station='Frankfurt(Main)Hbf'><s id="1-2607151200-1"><tl f="N" t="p" o="800528" c="S" n="35819"/><dp pt="2607151230" pp="101" l="8" ppth="Frankfurt(M) Flughafen Regionalbf|Mainz Hbf|Wiesbaden Hbf"/></s></timetable>`;
  const { entries } = mergeBoard('departures', [parseTimetableXml(xml)], null);
  assert.equal(nth(entries, 0).planned_time, '2026-07-15T12:30:00+02:00');
  assert.equal(nth(entries, 0).line, 'S 8');
  assert.equal(nth(entries, 0).long_distance, false);
  assert.equal(nth(entries, 0).destination, 'Wiesbaden Hbf');
  assert.deepEqual(parseTimetableXml(`<timetable station="Essen Hbf"/>`).s, []);
  assert.throws(() => parseTimetableXml(`<!DOCTYPE x [<!ENTITY a "b">]><timetable/>`), UpstreamError);
});

test('plan slots are Berlin local hours (yyMMdd/HH), across midnight and DST', () => {
  assert.deepEqual({ ...planSlot(new Date('2026-07-15T22:30:00Z')), start: undefined }, { date: '260716', hour: '00', start: undefined });
  assert.equal(planSlot(new Date('2026-01-10T12:05:00Z')).hour, '13');
  assert.equal(planSlot(new Date('2026-03-29T01:30:00Z')).hour, '03');
});

test('GET /stations/{eva}/departures: plan of two hours + changes, DB headers, live envelope', async () => {
  const r = await ctx.app.get('/api/v1/stations/8000098/departures');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.refresh_seconds'), 60);
  assert.equal(at(r.json, 'data.station.eva'), '8000098');
  assert.equal(at(r.json, 'data.station.name'), 'Essen Hbf');
  const ice = list<{ name: string }>(r.json, 'data.departures').find((d: { name: string }) => d.name === 'ICE 620');
  assert.equal(at(ice, 'delay_s'), 1500);
  // The fake moves the recorded evening (21:18 planned, 21:43 expected) to the current hour.
  const planned = Date.parse(str(ice, 'planned_time'));
  assert.equal(Date.parse(str(ice, 'expected_time')) - planned, 25 * 60_000);
  assert.equal(str(ice, 'planned_time').slice(14, 16), '18');
  assert.ok(Math.abs(planned - Date.now()) < 2 * 3600_000, str(ice, 'planned_time'));
  assert.equal(fake.count(`${BASE}/fchg/8000098`), 1);
  assert.equal(fake.count(`${BASE}/plan/8000098/`), 2);
  const hours = fake.requests.filter((q) => q.url.includes('/plan/')).map((q) => q.url.split('/').slice(-2).join('/'));
  assert.equal(new Set(hours).size, 2);
  assert.equal(nth(fake.requests, 0).headers['db-client-id'], 'client-id');
  assert.equal(nth(fake.requests, 0).headers['db-api-key'], 'api-key');
  assert.equal(at(r.json, 'attribution.license'), 'CC BY 4.0');
});

test('GET /stations/{eva}/arrivals answers arrivals', async () => {
  const r = await ctx.app.get('/api/v1/stations/8000098/arrivals');
  assert.equal(r.status, 200);
  assert.ok(list<{ origin: string | null }>(r.json, 'data.arrivals').some((a: { origin: string | null }) => a.origin === 'München Hbf'));
});

test('EVA with non-digits is 422 before any upstream call', async () => {
  for (const bad of ['80000x8', '123', '8000098%2F..%2Ffchg']) {
    const r = await ctx.app.get(`/api/v1/stations/${bad}/departures`);
    assert.equal(r.status, 422, bad);
    assert.equal(at(r.json, 'code'), 'invalid_parameter');
  }
  const q = await ctx.app.get('/api/v1/cities/essen/station-departures?eva=abc');
  assert.equal(q.status, 422);
  assert.equal(fake.count(), 0);
});

test('without DB credentials: disabled, data null, no upstream call', async () => {
  const r = await ctx.keyless.get('/api/v1/stations/8000098/departures');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'disabled');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.disabled_reason'), /DB_CLIENT_ID/);
  const c = await ctx.keyless.get('/api/v1/cities/essen/station-arrivals');
  assert.equal(at(c.json, 'meta.source_status'), 'disabled');
  assert.equal(fake.count(), 0);
});

test('city station-departures: the mapped main station of a city', async () => {
  const r = await ctx.app.get('/api/v1/cities/essen/station-departures');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.station.eva'), '8000098');
  assert.equal(at(r.json, 'meta.main_station_choice'), 'curated');
  assert.equal(fake.count(`${BASE}/fchg/8000098`), 1);
  // Another city's main station is asked for its own board; the fixtures have none there (404s): no_data, never Essen's.
  const n = await ctx.app.get('/api/v1/cities/nuernberg/station-departures');
  assert.equal(at(n.json, 'meta.source_status'), 'no_data');
  assert.equal(at(n.json, 'data.station.eva'), '8000284');
  assert.equal(at(n.json, 'data.station.name'), null);
  assert.equal(fake.count(`${BASE}/fchg/8000284`), 1);
});

test("city station-departures: without a curated main station, the city's best-category station from the station catalog", async () => {
  // The StaDa fixture lists Wuppertal Hbf and Wuppertal-Oberbarmen in category 2, Vohwinkel in 3.
  const r = await ctx.app.get('/api/v1/cities/wuppertal/station-departures');
  assert.equal(r.status, 200);
  // The fixtures hold no board of Wuppertal Hbf (no_data); the choice of the station is what is tested.
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'meta.main_station_choice'), 'station_category');
  assert.equal(fake.count(`${BASE}/fchg/8099501`), 1, 'Wuppertal Hbf (8099501) wins the tie with Oberbarmen');
});

test('main station rule: lowest category, then a Hbf, then the first name', () => {
  const st = (name: string, category: number) => ({ name, category });
  assert.equal(mainStation([st('Wuppertal-Oberbarmen', 2), st('Wuppertal Hbf', 2), st('Wuppertal-Vohwinkel', 3)])?.name, 'Wuppertal Hbf');
  assert.equal(mainStation([st('Kassel Hbf', 2), st('Kassel-Wilhelmshöhe', 1)])?.name, 'Kassel-Wilhelmshöhe');
  assert.equal(mainStation([st('B-Stadt Süd', 4), st('A-Stadt Nord', 4)])?.name, 'A-Stadt Nord');
  assert.equal(mainStation([]), null);
});

test('city station-departures: a station chosen by ?eva=, one of another city refused, and a city without stations', async () => {
  const r = await ctx.app.get('/api/v1/cities/wuppertal/station-departures?eva=8099503');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'data.station.eva'), '8099503');
  assert.equal(at(r.json, 'meta.main_station_choice'), undefined);
  assert.equal(fake.count(`${BASE}/fchg/8099503`), 1);
  const other = await ctx.app.get('/api/v1/cities/wuppertal/station-departures?eva=8000207');
  assert.equal(other.status, 200);
  assert.equal(at(other.json, 'meta.source_status'), 'no_data');
  assert.match(str(other.json, 'meta.reason'), /not a station of Wuppertal/);
  assert.equal(fake.count(`${BASE}/fchg/8000207`), 0);
  // The StaDa fixture has no station in Bottrop.
  const none = await ctx.app.get('/api/v1/cities/bottrop/station-arrivals');
  assert.equal(none.status, 200);
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');
  assert.match(str(none.json, 'meta.reason'), /eva/);
});

test('unknown city is 404; dead upstream with nothing cached is 503', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/station-departures');
  await expectUnavailable({ fake, env: CREDS, path: '/api/v1/stations/8000001/departures' });
});

test('rate limit: calls beyond ratePerMinute in the current minute are refused (no queue room) without reaching the upstream', async () => {
  // The counter is per clock minute: start well inside one so the three calls share it.
  const into = Date.now() % 60_000;
  if (into > 58_000) await new Promise((r) => setTimeout(r, 60_000 - into + 50));
  const store = new MemoryStore();
  const client = new UpstreamClient({ userAgent: 'test', connectTimeoutMs: 1000, timeoutMs: 2000, maxResponseBytes: 1_000_000 });
  const decl = { ...DB_TIMETABLES, id: 'rate-test', ratePerMinute: 2 };
  const http = new BoundSourceHttp(
    decl,
    { enabled: true, baseUrl: fake.url + BASE, urls: {}, credentials: {}, missingCredentials: [], limits: {} },
    client,
    new Metrics(),
    new SourceHealth(),
    new RateGate(store, decl, 0),
  );
  try {
    await http.text('/fchg/{eva}', { params: { eva: '8000098' } });
    await http.text('/fchg/{eva}', { params: { eva: '8000098' } });
    await assert.rejects(http.text('/fchg/{eva}', { params: { eva: '8000098' } }), (e: unknown) => e instanceof UpstreamError && e.kind === 'own_rate_limit');
    assert.equal(fake.count(`${BASE}/fchg/`), 2);
    assert.equal(DB_TIMETABLES.ratePerMinute, 60);
  } finally {
    await client.close();
  }
});

test('malformed upstream: a body that is not Timetables XML is 503, never 500; nothing planned (404s) is no_data', async () => {
  fake.get(new RegExp(`^${BASE}/fchg/8000999$`), { body: '{"error": "not xml"}', headers: { 'content-type': 'application/json' } });
  fake.get(new RegExp(`^${BASE}/plan/8000999/\\d{6}/\\d{2}$`), { body: '<html><body>502</body></html>', headers: { 'content-type': 'text/html' } });
  const bad = await ctx.app.get('/api/v1/stations/8000999/departures');
  assert.equal(bad.status, 503);
  assert.equal(at(bad.json, 'code'), 'upstream_unavailable');
  fake.get(new RegExp(`^${BASE}/(fchg|plan)/8000998(/.*)?$`), { status: 404, body: '' });
  const none = await ctx.app.get('/api/v1/stations/8000998/arrivals');
  assert.equal(none.status, 200);
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');
});
