import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import protobuf from 'protobufjs/minimal.js';
import type { RtTripUpdate } from '../src/sources/gtfs/decode.ts';
import { decodeFeed } from './helpers/gtfs-decode-feed.ts';
import { buildStaticIndex } from '../src/sources/gtfs/static-index-build.ts';
import { StaticIndex } from '../src/sources/gtfs/static-index.ts';
import { detailAt, tripTimeline } from '../src/sources/gtfs/trip-detail.ts';
import type { StoredTrip } from '../src/sources/gtfs/rt-index.ts';
import { gtfsInstantMs, parseGtfsTime, pickServiceDay } from '../src/sources/gtfs/service-time.ts';
import { cityOfStop } from '../src/sources/gtfs/city-stops.ts';
import { bucketOf, cityStopTable, currentDelay, type CityStopTable } from '../src/sources/gtfs/rt-index.ts';
import { decodeFeedColumns } from '../src/sources/gtfs/feed-columns.ts';
import { IntColumns, NONE } from '../src/sources/gtfs/columns.ts';
import { toBerlinIso } from '../src/core/time.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { encodeFeed, zipFiles, type GenTrip } from './helpers/gtfs-feed.ts';
import { ICE_TRIP, liveFeed, staticZip, U5_TRIP } from './fixtures/gtfs/scenario.ts';
import { must, nth } from './helpers/must.ts';

/** A nullable number as a column cell (NONE for null). */
const orNone = (v: number | null): number => (v === null ? NONE : v);

/** One trip joined with its schedule at `nowMs`, as the adapter builds it. */
const tripDetail = (t: StoredTrip, index: Parameters<typeof tripTimeline>[1], nowMs: number) => detailAt(tripTimeline(t, index, nowMs), nowMs);

const RT = GtfsRealtimeBindings.transit_realtime;

async function decodeAll(buf: Buffer) {
  const trips: RtTripUpdate[] = [];
  const summary = await decodeFeed(buf, (t) => trips.push(t));
  return { summary, trips };
}

let index: StaticIndex | null = null;
async function fixtureIndex(): Promise<StaticIndex> {
  if (index) return index;
  const path = join(mkdtempSync(join(tmpdir(), 'gtfs-static-')), 'gtfs-static.sqlite');
  // The scenario's clock at 10:06 on the spring DST day: U5 trip 1910001 is planned 10:00:00 to 10:10:30 that day.
  await buildStaticIndex(staticZip(Date.parse('2026-03-29T10:06:00+02:00')), path, 'https://download.gtfs.de/germany/free/latest.zip');
  return (index = new StaticIndex(path));
}

test('decoder: the BART sample (real GTFS-RT TripUpdates) re-encoded with the bindings decodes entity by entity', async () => {
  const sample = JSON.parse(
    await import('node:fs').then((fs) => fs.readFileSync(new URL('./fixtures/gtfs/bart-tripupdates-2015-02-25.json', import.meta.url), 'utf8')),
  );
  const buf = Buffer.from(RT.FeedMessage.encode(RT.FeedMessage.fromObject(snakeToProto(sample) as Record<string, unknown>)).finish());
  const { summary, trips } = await decodeAll(buf);
  assert.equal(summary.timestamp, 1424845886);
  assert.equal(summary.entities, 4);
  assert.equal(summary.trip_updates, 4);
  assert.deepEqual(
    trips.map((t) => t.trip_id),
    ['69R10', '70R10', '69R11', '70R11'],
  );
  const last = nth(trips, 3);
  assert.equal(last.route_id, null);
  assert.equal(last.trip_delay, null);
  assert.deepEqual(
    last.updates.map((u) => [u.stop_id, u.seq, u.dep_delay, u.arr_delay, u.dep_time]),
    [
      ['FTVL', 8, 480, null, null],
      ['MCAR', 12, 0, null, null],
    ],
  );
  // A delay of 0 is a statement, not an absent value.
  assert.equal(nth(nth(trips, 0).updates, 0).dep_delay, 0);
});

test('decoder: gtfs.de shape (delays on stop-time updates, empty route_id, alerts) and the trip delay rule', async () => {
  const now = Date.parse('2026-07-21T08:00:00Z');
  const { summary, trips } = await decodeAll(liveFeed(now));
  assert.equal(summary.alerts, 1);
  assert.equal(summary.trip_updates, 4);
  assert.equal(summary.entities, 5);
  const ice = trips.find((t) => t.trip_id === ICE_TRIP)!;
  assert.equal(ice.route_id, null);
  assert.equal(nth(ice.updates, 0).arr_delay, 300);
  assert.equal(nth(ice.updates, 0).dep_delay, 240);
  assert.equal(currentDelay(ice, now / 1000), 240);
});

test('decoder: a truncated or foreign payload is an UpstreamError (parse), never a crash', async () => {
  const good = liveFeed(Date.now());
  await assert.rejects(
    decodeFeed(good.subarray(0, good.length - 7), () => {}),
    (e: unknown) => e instanceof UpstreamError && e.kind === 'parse',
  );
  await assert.rejects(
    decodeFeed(Buffer.from('<html>502 Bad Gateway</html>'), () => {}),
    (e: unknown) => e instanceof UpstreamError && e.kind === 'parse',
  );
  const empty = await decodeAll(encodeFeed({ timestamp: 1, trips: [] }));
  assert.equal(empty.summary.entities, 0);
});

test('service time: GTFS times past 24:00 and the noon-minus-12h rule on both DST days', () => {
  assert.equal(parseGtfsTime('25:10:00'), 25 * 3600 + 600);
  assert.equal(parseGtfsTime(''), null);
  assert.equal(toBerlinIso(gtfsInstantMs('20240610', parseGtfsTime('25:10:00')!)), '2024-06-11T01:10:00+02:00');
  // Spring forward (2026-03-29): the reference is 23:00 CET of the day before.
  assert.equal(toBerlinIso(gtfsInstantMs('20260329', parseGtfsTime('03:30:00')!)), '2026-03-29T03:30:00+02:00');
  assert.equal(toBerlinIso(gtfsInstantMs('20260329', parseGtfsTime('12:00:00')!)), '2026-03-29T12:00:00+02:00');
  assert.equal(toBerlinIso(gtfsInstantMs('20260329', 0)), '2026-03-28T23:00:00+01:00');
  // Fall back (2026-10-25): the reference is 01:00 CEST.
  assert.equal(toBerlinIso(gtfsInstantMs('20261025', parseGtfsTime('12:00:00')!)), '2026-10-25T12:00:00+01:00');
  assert.equal(toBerlinIso(gtfsInstantMs('20261025', 0)), '2026-10-25T01:00:00+02:00');
  // A trip running 23:50-24:30 seen at 00:10 belongs to yesterday's service day.
  assert.equal(pickServiceDay(Date.parse('2026-07-21T22:10:00Z'), parseGtfsTime('23:50:00')!, parseGtfsTime('24:30:00')!), '20260721');
});

test('toBerlinIso (offset cached per UTC hour) renders like Intl in Europe/Berlin, across both DST switches', () => {
  const intl = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    timeZoneName: 'longOffset',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const reference = (ms: number) => {
    const p = Object.fromEntries(intl.formatToParts(ms).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${must(p.timeZoneName, 'a zone name').slice(3)}`;
  };
  for (const startIso of ['2026-03-28T22:00:00Z', '2026-10-24T22:00:00Z', '2024-06-10T21:00:00Z']) {
    const start = Date.parse(startIso);
    for (let m = 0; m < 8 * 60; m += 7) {
      const ms = start + m * 60_000 + 13_500;
      assert.equal(toBerlinIso(ms), reference(ms));
    }
  }
  assert.throws(() => toBerlinIso(Number.NaN), RangeError);
});

test('city of a stop: district key of DELFI ids, radius for numeric gtfs.de ids, nothing outside', () => {
  assert.equal(cityOfStop('de:08111:6056', null, null), 'stuttgart');
  assert.equal(cityOfStop('de:11000:900003200:2:52', 52.52, 13.37), 'berlin');
  assert.equal(cityOfStop('718431', 48.764084, 9.167703), 'stuttgart');
  assert.equal(cityOfStop('de:09774:2600', 48.460564, 10.279262), null);
  assert.ok(bucketOf('1910001', 4096) >= 0 && bucketOf('1910001', 4096) < 4096);
  assert.equal(bucketOf('1910001', 4096), bucketOf('1910001', 4096));
});

test('static index: DELFI-layout zip (any column order, quoted names) into stops, trips, routes and stop times', async () => {
  const idx = await fixtureIndex();
  assert.equal(idx.meta.trips, 3);
  assert.equal(idx.meta.stops, 19);
  assert.equal(idx.meta.stop_times, 23);
  const t = idx.trip(ICE_TRIP)!;
  assert.equal(t.route_id, '162289_101');
  assert.equal(t.headsign, 'S+U Gesundbrunnen Bhf (Berlin)');
  assert.equal(t.route_short_name, '11');
  assert.equal(idx.stop('de:08221:1160')!.name, 'Heidelberg, Hauptbahnhof');
  const times = idx.stopTimes(ICE_TRIP);
  assert.equal(times.length, 15);
  assert.equal(nth(times, 4).arr, parseGtfsTime('24:01:00'));
  assert.equal(idx.stopCountOfCity('stuttgart'), 5);
  assert.equal(idx.routeOf(U5_TRIP), '28001_400');
});

test('static index: a zip without stop_times.txt is refused as a parse error', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'gtfs-static-')), 'x.sqlite');
  await assert.rejects(
    buildStaticIndex(zipFiles({ 'stops.txt': 'stop_id,stop_name\n1,A\n' }), path, 'x'),
    (e: unknown) => e instanceof UpstreamError && e.kind === 'parse',
  );
  await assert.rejects(buildStaticIndex(Buffer.from('not a zip'), path, 'x'), (e: unknown) => e instanceof UpstreamError && e.kind === 'parse');
});

test('trip detail: times past 24:00 on the service day, delay propagated downstream, position between stops', async () => {
  const idx = await fixtureIndex();
  const update: RtTripUpdate = {
    trip_id: ICE_TRIP,
    route_id: null,
    start_date: '20240610',
    start_time: null,
    cancelled: false,
    trip_delay: null,
    updates: [{ seq: 4, stop_id: 'de:08111:6115_G', arr_delay: 300, arr_time: null, dep_delay: 240, dep_time: null, skipped: false }],
  };
  // Stuttgart Hbf departs 00:11 + 4 min = 00:15 CEST on 2024-06-11; Heidelberg arrives 01:23 + 4 min.
  const now = Date.parse('2024-06-11T00:51:00+02:00');
  const d = tripDetail({ update, route_id: '162289_101', delay_s: 240 }, idx, now);
  assert.equal(d.unresolved, false);
  assert.equal(d.service_date, '2024-06-10');
  const stuttgart = nth(d.stop_updates, 4);
  assert.equal(stuttgart.name, 'Hauptbahnhof (oben)');
  assert.equal(stuttgart.planned_arrival_at, '2024-06-11T00:01:00+02:00');
  assert.equal(stuttgart.expected_arrival_at, '2024-06-11T00:06:00+02:00');
  assert.equal(stuttgart.expected_departure_at, '2024-06-11T00:15:00+02:00');
  assert.equal(stuttgart.realtime, true);
  // Stops before the first update take its delay (passed stops are dropped by feeds); after it the delay carries on.
  assert.equal(nth(d.stop_updates, 3).departure_delay_s, 300);
  assert.equal(nth(d.stop_updates, 3).realtime, false);
  assert.equal(nth(d.stop_updates, 5).arrival_delay_s, 240);
  assert.equal(nth(d.stop_updates, 5).realtime, false);
  assert.equal(d.progress, 'en_route');
  assert.equal(d.progress_at, '2024-06-11T00:51:00+02:00');
  assert.equal(d.delay_s, 240);
  const p = d.position!;
  assert.equal(p.estimated, true);
  assert.equal(p.from_stop_id, 'de:08111:6115_G');
  assert.equal(p.to_stop_id, 'de:08221:1160');
  // 00:15 -> 01:27 is 72 minutes; 00:51 is half way.
  assert.equal(p.fraction, 0.5);
  assert.ok(Math.abs(p.lat - (48.784084 + 49.40357) / 2) < 1e-5);
  assert.ok(Math.abs(p.lon - (9.181635 + 8.675442) / 2) < 1e-5);
});

test('trip detail: a trip absent from the static schedule is unresolved (stop names still joined)', async () => {
  const idx = await fixtureIndex();
  const update: RtTripUpdate = {
    trip_id: 'gone',
    route_id: null,
    start_date: null,
    start_time: null,
    cancelled: false,
    trip_delay: null,
    updates: [{ seq: 5, stop_id: 'de:08111:6056', arr_delay: null, arr_time: null, dep_delay: 60, dep_time: 1784000000, skipped: false }],
  };
  const d = tripDetail({ update, route_id: null, delay_s: 60 }, idx, Date.now());
  assert.equal(d.unresolved, true);
  assert.equal(d.position, null);
  assert.equal(nth(d.stop_updates, 0).name, 'Charlottenplatz');
  assert.equal(nth(d.stop_updates, 0).expected_departure_at, toBerlinIso(1784000000 * 1000));
  assert.equal(tripDetail({ update, route_id: null, delay_s: 60 }, null, Date.now()).unresolved, true);
});

test('trip detail: on the spring DST day the schedule keeps its wall-clock times after the switch', async () => {
  const idx = await fixtureIndex();
  const update: RtTripUpdate = { trip_id: U5_TRIP, route_id: null, start_date: '20260329', start_time: null, cancelled: false, trip_delay: null, updates: [] };
  const d = tripDetail({ update, route_id: null, delay_s: null }, idx, Date.parse('2026-03-29T10:05:30+02:00'));
  assert.equal(nth(d.stop_updates, 0).planned_departure_at, '2026-03-29T10:00:00+02:00');
  assert.equal(nth(d.stop_updates, 1).planned_departure_at, '2026-03-29T10:03:30+02:00');
  assert.equal(d.position?.from_stop_id, 'de:08111:6056');
  assert.equal(d.position?.fraction, 0.5);
});

/** The BART sample uses proto field names; fromObject wants the bindings' camelCase. */
function snakeToProto(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeToProto);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), snakeToProto(x)]));
  }
  return v;
}

/** The poller's columns as it built them from decodeFeed's objects before the direct decoder: the reference. */
async function columnsFromObjects(buf: Buffer, baseS: number, stops: CityStopTable | null) {
  const tripId: string[] = [],
    tripRoute: (string | null)[] = [],
    tripStart: (string | null)[] = [];
  const trips = new IntColumns(4),
    calls = new IntColumns(8),
    unrouted: number[] = [];
  const summary = await decodeFeed(buf, (t, start, end) => {
    const ord = trips.push(start, end, orNone(currentDelay(t, baseS)), t.cancelled ? 1 : 0);
    tripId.push(t.trip_id);
    tripRoute.push(t.route_id);
    tripStart.push(t.start_date);
    if (!t.route_id) unrouted.push(ord);
    if (!stops) return;
    for (const u of t.updates) {
      const s = u.stop_id === null ? undefined : stops.ordinal[u.stop_id];
      if (s === undefined) continue;
      calls.push(
        ord,
        orNone(u.seq),
        s,
        orNone(u.arr_delay),
        u.arr_time === null ? NONE : u.arr_time - baseS,
        orNone(u.dep_delay),
        u.dep_time === null ? NONE : u.dep_time - baseS,
        u.skipped ? 1 : 0,
      );
    }
  });
  return { summary, tripId, tripRoute, tripStart, trips, calls, unrouted };
}

const rows = (c: IntColumns) => Array.from({ length: c.length }, (_, r) => Array.from({ length: c.width }, (_, k) => c.get(r, k)));

/** Field-level protobuf: entity bytes concatenated repeat singular fields (the last one counts). */
function entityField(...entities: object[]): Buffer {
  const body = Buffer.concat(entities.map((e) => RT.FeedEntity.encode(RT.FeedEntity.fromObject(e)).finish()));
  const w = protobuf.Writer.create();
  w.uint32(18).bytes(body);
  return Buffer.from(w.finish());
}

test("direct decoder: the same trips, delays and stop-call columns as the bindings' objects, field by field", async () => {
  const baseS = 1_790_000_000;
  const gen: GenTrip[] = [];
  for (let i = 0; i < 1500; i++) {
    const stopsOf: GenTrip['stops'] = [];
    for (let k = 0; k < 3 + (i % 9); k++) {
      const v = (i * 31 + k * 17) % 23;
      stopsOf.push({
        seq: k * (i % 5),
        ...(v % 7 !== 0 ? { stop_id: v % 11 === 0 ? `de:11000:${i % 40}` : v % 13 === 0 ? `0${k}` : String((i * 7 + k * 13) % 300) } : {}),
        ...(v % 3 === 0 ? { arr_delay: (v - 10) * 60 } : {}),
        ...(v % 4 !== 1 ? { dep_delay: v % 5 === 0 ? 0 : (v - 8) * 30 } : {}),
        ...(v % 6 === 0 ? { arr_time: baseS + (v - 12) * 400 } : {}),
        ...(v % 5 === 2 ? { dep_time: v === 17 ? -5 : baseS + (v - 9) * 400 } : {}),
        ...(v % 9 === 4 ? { skipped: true } : {}),
      });
    }
    gen.push({
      trip_id: i % 97 === 5 ? '' : String(1_800_000_000 + i),
      ...(i % 3 === 0 ? { route_id: `r${i % 50}` } : i % 3 === 1 ? { route_id: '' } : {}),
      ...(i % 4 !== 0 ? { start_date: '20260721' } : {}),
      ...(i % 10 === 0 ? { start_time: '08:00:00' } : {}),
      ...(i % 37 === 3 ? { cancelled: true } : {}),
      stops: stopsOf,
    });
  }
  const trip = (id: string, extra: object = {}) => ({ tripId: id, ...extra });
  const su = (stopId: string, delay: number) => ({ stopSequence: 1, stopId, departure: { delay } });
  const edge = Buffer.concat([
    // Trip-level delay only, with a stop without events.
    entityField({ id: 'e1', tripUpdate: { trip: trip('T1'), delay: -90, timestamp: 1_790_000_000, stopTimeUpdate: [{ stopSequence: 3, stopId: '12' }] } }),
    // Deleted, with a vehicle beside it, and an alert beside a trip.
    entityField({ id: 'e2', isDeleted: true, tripUpdate: { trip: trip('T2'), stopTimeUpdate: [su('12', 60)] } }),
    entityField({
      id: 'e3',
      vehicle: { trip: trip('T3'), position: { latitude: 52.5, longitude: 13.4 } },
      alert: { informedEntity: [{ agencyId: '1' }] },
      tripUpdate: { trip: trip('T3'), stopTimeUpdate: [su('7', 120)] },
    }),
    // Repeated fields: the second trip update (and its stops) replaces the first.
    entityField(
      { id: 'e4', tripUpdate: { trip: trip('T4a'), stopTimeUpdate: [su('12', 1), su('13', 2)] } },
      { id: 'e4', tripUpdate: { trip: trip('T4b', { routeId: 'R4' }), stopTimeUpdate: [su('14', 3)] } },
    ),
    // A second departure event replaces the first entirely; an unknown stop and a non-numeric one.
    entityField(
      {
        id: 'e5',
        tripUpdate: {
          trip: trip('T5'),
          stopTimeUpdate: [{ stopSequence: 2, stopId: '12', departure: { delay: 30, time: baseS + 60 } }, su('999999', 5), su('x12', 6)],
        },
      },
      {
        id: 'e5',
        tripUpdate: {
          trip: trip('T5'),
          stopTimeUpdate: [{ stopSequence: 2, stopId: '12', departure: { delay: 30, time: baseS + 60, uncertainty: 30 }, arrival: { time: -1 } }],
        },
      },
    ),
    // The delay rule at its edges: a time exactly now, and one past 2106 (beyond 32 bits).
    entityField({
      id: 'e6',
      tripUpdate: { trip: trip('T6'), stopTimeUpdate: [{ stopId: '12', departure: { delay: 11, time: 2 ** 32 + 100 } }, su('14', 22)] },
    }),
    entityField({ id: 'e7', tripUpdate: { trip: trip('T7'), stopTimeUpdate: [{ stopId: '12', departure: { delay: 33, time: baseS } }, su('14', 44)] } }),
    entityField({ id: 'e8', tripUpdate: { trip: trip('T8'), stopTimeUpdate: [{ stopId: '12', departure: { delay: 55, time: -5 } }, su('14', 66)] } }),
  ]);
  const feed = Buffer.concat([encodeFeed({ timestamp: baseS, trips: gen, alerts: ['Bauarbeiten'] }), edge]);
  const ids = new Map<string, string>();
  for (let s = 0; s < 300; s += 2) ids.set(String(s), 'berlin');
  for (let s = 0; s < 40; s += 3) ids.set(`de:11000:${s}`, 'berlin');
  ids.set('01', 'hamburg');
  ids.set('x12', 'hamburg');
  const stops = cityStopTable(ids);
  for (const table of [stops, null]) {
    const want = await columnsFromObjects(feed, baseS, table);
    const got = await decodeFeedColumns(feed, baseS, table?.ordinal ?? null);
    assert.deepEqual(got.summary, want.summary);
    assert.deepEqual(got.tripId, want.tripId);
    assert.deepEqual(got.tripRoute, want.tripRoute);
    assert.deepEqual(got.tripStart, want.tripStart);
    assert.deepEqual(got.unrouted, want.unrouted);
    assert.deepEqual(rows(got.trips), rows(want.trips));
    assert.deepEqual(rows(got.calls), rows(want.calls));
  }
  // The reference covers what the edge entities are there for.
  const want = await columnsFromObjects(feed, baseS, stops);
  assert.ok(want.tripId.includes('T4b') && !want.tripId.includes('T4a') && !want.tripId.includes('T2') && !want.tripId.includes(''));
  assert.equal(want.summary.alerts, 2);
  assert.ok(want.calls.length > 3000);
  const delayOf = (id: string) => want.trips.get(want.tripId.indexOf(id), 2);
  assert.deepEqual([delayOf('T1'), delayOf('T6'), delayOf('T7'), delayOf('T8')], [-90, 11, 33, 66]);
});

test('direct decoder: a truncated or foreign payload is an UpstreamError (parse)', async () => {
  const good = liveFeed(Date.now());
  await assert.rejects(decodeFeedColumns(good.subarray(0, good.length - 7), 0, null), (e: unknown) => e instanceof UpstreamError && e.kind === 'parse');
  await assert.rejects(
    decodeFeedColumns(Buffer.from('<html>502 Bad Gateway</html>'), 0, null),
    (e: unknown) => e instanceof UpstreamError && e.kind === 'parse',
  );
  const noTrip = Buffer.concat([encodeFeed({ timestamp: 1, trips: [] }), Buffer.from([18, 4, 10, 1, 65, 26, 0])]);
  await assert.rejects(decodeFeedColumns(noTrip, 0, null), (e: unknown) => e instanceof UpstreamError && e.kind === 'parse');
  await assert.rejects(
    decodeFeed(noTrip, () => {}),
    (e: unknown) => e instanceof UpstreamError && e.kind === 'parse',
  );
});

test('IntColumns: chunked growth, sparse columns answer their fill value until a row differs, length truncates', () => {
  const c = new IntColumns(3, { 1: NONE, 2: 0 });
  for (let r = 0; r < 200_000; r++) c.push(r, r === 150_000 ? 7 : NONE, 0);
  assert.equal(c.length, 200_000);
  assert.equal(c.get(199_999, 0), 199_999);
  assert.equal(c.get(150_000, 1), 7);
  assert.equal(c.get(149_999, 1), NONE);
  assert.equal(c.get(10, 1), NONE);
  assert.equal(c.get(123_456, 2), 0);
  c.length = 10;
  c.push(-1, 3, 1);
  assert.deepEqual([c.get(10, 0), c.get(10, 1), c.get(10, 2)], [-1, 3, 1]);
});
