import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectUnavailable } from './helpers/status-rules.ts';
import { register as registerVag } from './fixtures/vag/routes.ts';
import { register as registerEfa } from './fixtures/efa/routes.ts';
import { register as registerHvv } from './fixtures/hvv/routes.ts';
import { BUTZBACH_STOP, register as registerRmv } from './fixtures/rmv/routes.ts';
import { parseVagDepartures } from '../src/sources/vag/departures.ts';
import { parseEfaDepartures } from '../src/sources/efa/departures.ts';
import { gtiNow, parseGtiDepartures } from '../src/sources/hvv/departures.ts';
import { gtiSignature } from '../src/sources/hvv/gti.ts';
import { parseRmvDepartures, isUnknownStop } from '../src/sources/rmv/departures.ts';
import { nth } from './helpers/must.ts';
import { at, str } from './helpers/json.ts';

const CREDS = { HVV_GEOFOX_USER: 'gti-user', HVV_GEOFOX_PASSWORD: 'gti-secret', RMV_API_KEY: 'rmv-key' };
const json = (path: string) => JSON.parse(fixture(path).toString());

const ctx = useFakeApp(
  (f) => {
    registerVag(f);
    registerEfa(f);
    registerHvv(f);
    registerRmv(f);
  },
  { env: CREDS, keyless: true },
);
const { fake } = ctx;

test('parser: VAG abfahrten.json — offsets kept, delay from Ist - Soll, Metadata timestamp', () => {
  const b = parseVagDepartures(json('vag/abfahrten-vgn-536-schweiggerstr.json'), '536');
  assert.deepEqual(b.stop, { id: '536', name: 'Schweiggerstr. (Nürnberg)' });
  assert.equal(b.as_of, '2014-11-24T18:05:30+01:00');
  const d = nth(b.departures, 0);
  assert.equal(d.line, '8');
  assert.equal(d.direction, 'Tristanstraße');
  assert.equal(d.planned_time, '2014-11-24T18:04:00+01:00');
  assert.equal(d.expected_time, '2014-11-24T18:06:15+01:00');
  assert.equal(d.delay_s, 135);
  assert.equal(d.mode, 'tram');
  assert.equal(d.realtime, true);
  assert.equal(d.cancelled, null);
  assert.equal(d.stop.point, 'SCHW:14');
});

test('parser: EFA rapidJSON — UTC times to Berlin summer time, platform, product class, cancellation', () => {
  const p = parseEfaDepartures(json('efa/dm-rapidjson-de-08111-6002-vaihingen.json'));
  assert.ok('board' in p);
  const b = p.board;
  assert.deepEqual(b.stop, { id: 'de:08111:6002', name: 'Stuttgart, Vaihingen' });
  const s1 = nth(b.departures, 0);
  assert.equal(s1.line, 'S1');
  assert.equal(s1.direction, 'Plochingen');
  assert.equal(s1.planned_time, '2026-07-18T20:25:00+02:00');
  assert.equal(s1.expected_time, '2026-07-18T20:26:00+02:00');
  assert.equal(s1.delay_s, 60);
  assert.equal(s1.platform, '3');
  assert.equal(s1.mode, 'suburban');
  assert.equal(s1.stop.id, 'de:08111:6002');
  assert.equal(s1.cancelled, false);
  assert.equal(s1.realtime, true);
  const bus = nth(b.departures, 1);
  assert.equal(bus.mode, 'bus');
  assert.equal(bus.cancelled, true);
  const none = parseEfaDepartures(json('efa/dm-rapidjson-stop-not-found.json'));
  assert.ok('noData' in none);
});

test('parser: GTI departureList — timeOffset from the Hamburg answer time (winter), delay in seconds', () => {
  const b = parseGtiDepartures(json('hvv/departureList_wartenau_2020-01-26.json'), { id: 'Master:10901', name: 'Wartenau' });
  assert.equal(b.as_of, '2020-01-26T22:52:00+01:00');
  assert.equal(b.departures.length, 5);
  const bus = nth(b.departures, 2);
  assert.equal(bus.line, '25');
  assert.equal(bus.direction, 'U Burgstraße');
  assert.equal(bus.planned_time, '2020-01-26T22:57:00+01:00');
  assert.equal(bus.expected_time, '2020-01-26T22:57:00+01:00');
  assert.equal(bus.delay_s, 0);
  assert.equal(bus.mode, 'bus');
  assert.equal(bus.stop.id, 'Master:60015');
  assert.equal(nth(b.departures, 0).mode, 'subway');
  assert.equal(nth(b.departures, 0).realtime, true);
  assert.deepEqual(gtiNow(new Date('2026-07-18T18:05:00Z')), { date: '18.07.2026', time: '20:05' });
});

test('parser: RMV departureBoard — local times zoned, rtTime delay, rtTrack, cancelled, SVC_LOC', () => {
  const b = parseRmvDepartures(json('rmv/departureBoard-3000010-frankfurt-hbf.json'), '3000010');
  assert.deepEqual(b.stop, { id: '3000010', name: 'Frankfurt (Main) Hauptbahnhof tief' });
  assert.equal(b.as_of, '2026-07-18T20:24:31+02:00');
  const s8 = nth(b.departures, 0),
    s1 = nth(b.departures, 1),
    s6 = nth(b.departures, 2);
  assert.equal(s8.line, 'S8');
  assert.equal(s8.planned_time, '2026-07-18T20:25:00+02:00');
  assert.equal(s8.delay_s, 120);
  assert.equal(s8.mode, 'suburban');
  assert.equal(s1.platform, '103');
  assert.equal(s6.cancelled, true);
  assert.equal(s6.realtime, false);
  assert.equal(isUnknownStop(json('rmv/departureBoard-unknown-stop.json')), true);
});

test('parser: RMV departureBoard recorded at Butzbach (HAFAS ReST 2.22): ProductAtStop with padded internalName, no cancelled member, zoned planRtTs', () => {
  const b = parseRmvDepartures(json('rmv/departureBoard-3011133-butzbach-2022-10-24.json'), BUTZBACH_STOP);
  assert.deepEqual(b.stop, { id: '3011133', name: 'Butzbach Bahnhof' });
  assert.equal(b.as_of, '2022-10-24T19:04:08+02:00');
  assert.equal(b.departures.length, 1);
  assert.deepEqual(nth(b.departures, 0), {
    line: 'RB40',
    direction: 'Dillenburg Bahnhof',
    stop: { id: '3011133', name: 'Butzbach Bahnhof', point: null },
    planned_time: '2022-10-24T19:11:00+02:00',
    expected_time: '2022-10-24T19:15:00+02:00',
    delay_s: 240,
    platform: '1',
    mode: 'rail',
    cancelled: false,
    realtime: true,
    trip_id:
      '2|#VN#1#ST#1666375434#PI#0#ZI#135350#TA#0#DA#241022#1S#3004503#1T#1828#LS#3011005#LT#2022#PU#80#RT#1#CA#TAB#ZE#RB40#ZB#    RB40#PC#2#FR#3004503#FT#1828#TO#3011005#TT#2022#',
  });
});

test('parser: RMV departureBoard — newer HAFAS ReST platform objects (rtPlatform before rtTrack, platform before track); a malformed one is ignored', () => {
  // Built: the documented PlatformType of later HAFAS ReST versions, as other operators' recorded boards show it.
  const board = (d: Record<string, unknown>) => ({ Departure: [{ name: 'S 8', stopExtId: '3000010', date: '2026-07-18', time: '20:25:00', ...d }] });
  const platform = (d: Record<string, unknown>) => nth(parseRmvDepartures(board(d), '3000010').departures, 0).platform;
  assert.equal(platform({ platform: { type: 'PL', text: '103' } }), '103');
  assert.equal(platform({ track: '103', platform: { type: 'PL', text: '103' }, rtPlatform: { type: 'PL', text: '104' } }), '104');
  assert.equal(platform({ rtTrack: '104', platform: { type: 'PL', text: '103' } }), '104');
  assert.equal(platform({ track: '103', platform: 'x' }), '103');
  assert.equal(platform({ platform: { type: 'PL' } }), null);
});

/** Within a few minutes of now: the fakes replay the recorded boards as of now. */
const nearNow = (iso: unknown) => assert.ok(Math.abs(Date.parse(String(iso)) - Date.now()) < 10 * 60_000, String(iso));

test('GET /live/nuernberg/departures: VAG, default stop 510, live envelope', async () => {
  const r = await ctx.app.get('/api/v1/live/nuernberg/departures?stop=536');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.type'), 'departures-vag');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.refresh_seconds'), 30);
  assert.equal(at(r.json, 'data.stop.id'), '536');
  nearNow(at(r.json, 'meta.as_of'));
  assert.equal(at(r.json, 'data.departures.0.delay_s'), 135);
  nearNow(at(r.json, 'data.departures.0.planned_time'));
  // The default stop (Hauptbahnhof, 510) has no recording: no departures, never Schweiggerstr.'s.
  const d = await ctx.app.get('/api/v1/live/nuernberg/departures');
  assert.equal(at(d.json, 'meta.source_status'), 'no_data');
  assert.equal(fake.count('/dm/api/abfahrten.json/vgn/510'), 1);
});

test('a bad stop parameter is 422 without an upstream call', async () => {
  assert.equal((await ctx.app.get('/api/v1/live/nuernberg/departures?stop=abc')).status, 422);
  assert.equal((await ctx.app.get('/api/v1/live/frankfurt-am-main/departures?stop=..%2Fx')).status, 422);
  assert.equal((await ctx.app.get('/api/v1/live/essen/departures?stop=%3Cscript%3E')).status, 422);
  assert.equal(fake.count(), 0);
});

test('GET /live/{city}/departures: EFA of VRR for Essen, of VVS for Stuttgart', async () => {
  const r = await ctx.app.get('/api/v1/live/essen/departures');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.type'), 'departures-efa');
  // The fixtures hold a VVS recording only: VRR's monitor resolves no stop (no_data, never Vaihingen's board).
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'meta.tier'), 'C');
  const q = new URL(nth(fake.requests, 0).url, 'http://x');
  assert.equal(q.pathname, '/standard/XML_DM_REQUEST');
  assert.equal(q.searchParams.get('name_dm'), 'de:05113:9289');
  assert.equal(q.searchParams.get('outputFormat'), 'rapidJSON');
  assert.equal(q.searchParams.get('useRealtime'), '1');
  const s = await ctx.app.get('/api/v1/live/stuttgart/departures?stop=de:08111:6002');
  assert.equal(at(s.json, 'data.departures.0.line'), 'S1');
  assert.equal(at(s.json, 'data.departures.0.delay_s'), 60);
  nearNow(at(s.json, 'data.departures.0.planned_time'));
  assert.equal(fake.count('/mngvvs/XML_DM_REQUEST'), 1);
});

test('EFA: a stop the EFA does not know is no_data', async () => {
  fake.get('/standard/XML_DM_REQUEST', { file: 'efa/dm-rapidjson-stop-not-found.json' });
  const r = await ctx.app.get('/api/v1/live/bochum/departures?stop=Nirgendwo');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /not found/);
});

test('EFA template: cities outside VRR core + Stuttgart are not_covered; literal city paths keep their own feeds', async () => {
  const r = await ctx.app.get('/api/v1/live/koeln/departures');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(r.json, 'meta.covered_cities'), ['bochum', 'dortmund', 'duesseldorf', 'duisburg', 'essen', 'stuttgart', 'wuppertal']);
  assert.equal(at((await ctx.app.get('/api/v1/live/hamburg/departures?stop=Master:1')).json, 'meta.type'), 'departures-hvv');
  assert.equal(at((await ctx.app.get('/api/v1/live/frankfurt-am-main/departures?stop=1111111')).json, 'meta.type'), 'departures-rmv');
  assert.equal((await ctx.app.get('/api/v1/live/atlantis/departures')).status, 404);
  assert.equal(fake.count('/standard/'), 0);
});

test('GET /live/hamburg/departures: checkName then departureList, both HMAC-SHA1 signed', async () => {
  const r = await ctx.app.get('/api/v1/live/hamburg/departures');
  assert.equal(r.status, 200);
  // The fixtures hold Wartenau's board only: the default station answers without departures.
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.deepEqual(
    fake.requests.map((q) => q.url),
    ['/gti/public/checkName', '/gti/public/departureList'],
  );
  for (const q of fake.requests) {
    assert.equal(q.method, 'POST');
    assert.equal(q.headers['geofox-auth-type'], 'HmacSHA1');
    assert.equal(q.headers['geofox-auth-user'], 'gti-user');
    assert.equal(q.headers['geofox-auth-signature'], createHmac('sha1', 'gti-secret').update(q.body).digest('base64'));
    assert.equal(q.headers['geofox-auth-signature'], gtiSignature(q.body, 'gti-secret'));
  }
  const list = JSON.parse(nth(fake.requests, 1).body);
  assert.equal(list.station.id, 'Master:9910910');
  assert.equal(list.station.type, 'STATION');
  assert.match(list.time.date, /^\d{2}\.\d{2}\.\d{4}$/);
  assert.equal(JSON.parse(nth(fake.requests, 0).body).theName.name, 'Hamburg Hauptbahnhof');
  // a station id skips the name lookup
  fake.reset();
  registerHvv(fake);
  const w = await ctx.app.get('/api/v1/live/hamburg/departures?stop=Master:10901');
  assert.deepEqual(
    fake.requests.map((q) => q.url),
    ['/gti/public/departureList'],
  );
  assert.equal(at(w.json, 'meta.source_status'), 'ok');
  assert.equal(at(w.json, 'data.departures.length'), 5);
  nearNow(at(w.json, 'data.departures.0.planned_time'));
});

test('GET /live/frankfurt-am-main/departures: RMV with the access id; unknown stop is no_data', async () => {
  const r = await ctx.app.get('/api/v1/live/frankfurt-am-main/departures');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  nearNow(at(r.json, 'meta.as_of'));
  assert.equal(at(r.json, 'data.departures.0.delay_s'), 120);
  nearNow(at(r.json, 'data.departures.0.planned_time'));
  assert.equal(at(r.json, 'data.departures.2.cancelled'), true);
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.equal(q.get('accessId'), 'rmv-key');
  assert.equal(q.get('id'), '3000010');
  assert.equal(q.get('format'), 'json');
  fake.get('/hapi/departureBoard', { status: 400, file: 'rmv/departureBoard-unknown-stop.json' });
  const u = await ctx.app.get('/api/v1/live/frankfurt-am-main/departures?stop=9999999');
  assert.equal(at(u.json, 'meta.source_status'), 'no_data');
});

test('GET /live/frankfurt-am-main/departures?stop=3011133: the recorded Butzbach board, replayed to now', async () => {
  const r = await ctx.app.get(`/api/v1/live/frankfurt-am-main/departures?stop=${BUTZBACH_STOP}`);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.stop.name'), 'Butzbach Bahnhof');
  assert.equal(at(r.json, 'data.departures.length'), 1);
  assert.equal(at(r.json, 'data.departures.0.line'), 'RB40');
  assert.equal(at(r.json, 'data.departures.0.delay_s'), 240);
  assert.equal(at(r.json, 'data.departures.0.mode'), 'rail');
  nearNow(at(r.json, 'data.departures.0.planned_time'));
});

test('HVV and RMV without credentials are disabled and call nothing; VAG and EFA need none', async () => {
  for (const path of ['/api/v1/live/hamburg/departures', '/api/v1/live/frankfurt-am-main/departures']) {
    const r = await ctx.keyless.get(path);
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'disabled', path);
    assert.equal(at(r.json, 'data'), null);
  }
  assert.equal(fake.count(), 0);
  assert.equal(at((await ctx.keyless.get('/api/v1/live/nuernberg/departures?stop=536')).json, 'meta.source_status'), 'ok');
  assert.equal(at((await ctx.keyless.get('/api/v1/live/stuttgart/departures?stop=de:08111:6002')).json, 'meta.source_status'), 'ok');
});

test('dead upstream with nothing cached is 503', async () => {
  await expectUnavailable({ fake, env: CREDS, path: '/api/v1/live/nuernberg/departures?stop=1234' });
});

test('malformed upstream: an HTML error page instead of the feed is 503 for every city feed, never 500', async () => {
  const html = { body: '<html><body>502 Bad Gateway</body></html>', headers: { 'content-type': 'text/html' } };
  fake.get(/^\/dm\/api\/abfahrten\.json\/vgn\/\d+$/, html);
  fake.get('/standard/XML_DM_REQUEST', html);
  fake.post('/gti/public/departureList', html);
  fake.get('/hapi/departureBoard', html);
  for (const path of [
    '/api/v1/live/nuernberg/departures?stop=4242',
    '/api/v1/live/essen/departures?stop=de:05113:4242',
    '/api/v1/live/hamburg/departures?stop=Master:4242',
    '/api/v1/live/frankfurt-am-main/departures?stop=4242424',
  ]) {
    const r = await ctx.app.get(path);
    assert.equal(r.status, 503, path);
    assert.equal(at(r.json, 'code'), 'upstream_unavailable', path);
  }
});

test('a stop with no departure announced is no_data (not an empty ok)', async () => {
  const sample = json('vag/abfahrten-vgn-536-schweiggerstr.json');
  fake.get(/^\/dm\/api\/abfahrten\.json\/vgn\/\d+$/, { json: { ...sample, Abfahrten: [] } });
  const r = await ctx.app.get('/api/v1/live/nuernberg/departures?stop=4343');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /no departures announced/);
});
