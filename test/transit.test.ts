import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { register as registerGtfs } from './fixtures/gtfs/routes.ts';
import { ICE_ROUTE, ICE_TRIP, liveFeed, U5_DELAY_S, U5_ROUTE, U5_TRIP, U5_TRIP_LATER, UNRESOLVED_ROUTE, UNRESOLVED_TRIP } from './fixtures/gtfs/scenario.ts';
import { GTFS_RT_POLLER, gtfsRtPoller, runGtfsRtPoll } from '../src/jobs/gtfs/rt-poller.ts';
import { pollGtfsRt } from '../src/jobs/gtfs/rt-poll.ts';
import { pollChildPid, pollsInChild, stopGtfsChildren } from '../src/jobs/gtfs/child-process.ts';
import { childEntry, childEntryFor } from '../src/jobs/gtfs/child-entry.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { GTFS_STATIC_JOB, refreshGtfsStatic } from '../src/jobs/gtfs/static.ts';
import { hasZone } from '../src/core/time.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { intervalOf } from '../src/core/job.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { loadAppConfig } from '../src/startup.ts';
import { at, list, num, obj, str } from './helpers/json.ts';

const LIVE = '/api/v1/live/stuttgart/transit';
const storeDir = () => join(mkdtempSync(join(tmpdir(), 'transit-')), 'store.sqlite');

let fake: FakeUpstream;
let app: TestApp;
before(async () => {
  fake = await new FakeUpstream().start();
  registerGtfs(fake);
  app = await startApp({ ...fakeEnv(fake.url), STORE_PATH: storeDir() });
  await refreshGtfsStatic(app.rt);
  await pollGtfsRt(app.rt, { ttlMs: 120_000 });
});
after(async () => {
  await app.close();
  await fake.stop();
});

test('departures: live envelope (as_of, refresh_seconds 45), trip_id and route_id on every item, route filled from trips.txt', async () => {
  const r = await app.get(`${LIVE}/departures`);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.refresh_seconds'), 45);
  assert.ok(hasZone(str(r.json, 'meta.as_of')));
  assert.equal(at(r.json, 'attribution.license'), 'CC BY-SA 4.0');
  assert.equal(at(r.json, 'attribution.tier'), 'B');
  assert.ok(num(r.json, 'data.length') >= 4);
  for (const d of list(r.json, 'data')) {
    assert.ok(typeof at(d, 'trip_id') === 'string' && str(d, 'trip_id').length > 0);
    assert.ok('route_id' in obj(d));
    assert.ok(hasZone(str(d, 'expected_departure_at')));
  }
  const olgaeck = list<{ trip_id: string; stop_id: string }>(r.json, 'data').find(
    (d: { trip_id: string; stop_id: string }) => d.trip_id === U5_TRIP && d.stop_id === 'de:08111:6333',
  );
  assert.equal(at(olgaeck, 'route_id'), U5_ROUTE);
  assert.equal(at(olgaeck, 'line'), 'U5');
  assert.equal(at(olgaeck, 'headsign'), 'Leinfelden Bahnhof');
  assert.equal(at(olgaeck, 'stop_name'), 'Olgaeck');
  assert.equal(num(olgaeck, 'delay_s'), U5_DELAY_S);
  assert.equal(Date.parse(str(olgaeck, 'expected_departure_at')) - Date.parse(str(olgaeck, 'planned_departure_at')), num(olgaeck, 'delay_s') * 1000);
  // Only a realtime time, no schedule: still listed, with the feed's own route_id.
  const unresolved = list<{ trip_id: string }>(r.json, 'data').find((d: { trip_id: string }) => d.trip_id === UNRESOLVED_TRIP);
  assert.equal(at(unresolved, 'route_id'), UNRESOLVED_ROUTE);
  assert.equal(at(unresolved, 'planned_departure_at'), null);
  // Sorted by expected departure.
  const times = list<{ expected_departure_at: string }>(r.json, 'data').map((d: { expected_departure_at: string }) => Date.parse(d.expected_departure_at));
  assert.deepEqual(
    times,
    [...times].sort((a, b) => a - b),
  );
});

test('departures: stop_id narrows to one stop; an unknown stop is no_data; a malformed one is 422', async () => {
  const one = await app.get(`${LIVE}/departures?stop_id=de:08111:6333`);
  assert.equal(at(one.json, 'meta.source_status'), 'ok');
  assert.ok(list<{ stop_id: string }>(one.json, 'data').every((d: { stop_id: string }) => d.stop_id === 'de:08111:6333'));
  assert.deepEqual(
    list<{ trip_id: string }>(one.json, 'data')
      .map((d: { trip_id: string }) => d.trip_id)
      .sort(),
    [U5_TRIP, U5_TRIP_LATER],
  );
  const none = await app.get(`${LIVE}/departures?stop_id=de:08111:1`);
  assert.equal(none.status, 200);
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');
  const bad = await app.get(`${LIVE}/departures?stop_id=${encodeURIComponent('<script>')}`);
  assert.equal(bad.status, 422);
});

test('departures: a city without stops in the feed is no_data; an unknown city is 404', async () => {
  const kiel = await app.get('/api/v1/live/kiel/transit/departures');
  assert.equal(kiel.status, 200);
  assert.equal(at(kiel.json, 'meta.source_status'), 'no_data');
  assert.equal(at(kiel.json, 'meta.refresh_seconds'), 45);
  const unknown = await app.get('/api/v1/live/atlantis/transit/departures');
  assert.equal(unknown.status, 404);
});

test('trip detail: delay, stop updates with names and zoned times, interpolated position flagged estimated, and the moment it is for', async () => {
  const asked = Date.now();
  const r = await app.get(`${LIVE}/trips/${U5_TRIP}`);
  const answered = Date.now();
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.refresh_seconds'), 45);
  const d = at(r.json, 'data');
  assert.equal(at(d, 'unresolved'), false);
  assert.equal(at(d, 'route_id'), U5_ROUTE);
  assert.equal(at(d, 'line'), 'U5');
  assert.equal(num(d, 'delay_s'), U5_DELAY_S);
  assert.deepEqual(
    list<{ name: string | null }>(d, 'stop_updates').map((s: { name: string | null }) => s.name),
    ['Hauptbahnhof (Arnulf-Klett-Platz)', 'Charlottenplatz', 'Olgaeck', 'Marienplatz'],
  );
  for (const s of list(d, 'stop_updates')) assert.ok(hasZone(str(s, 'planned_arrival_at')) && hasZone(str(s, 'expected_arrival_at')));
  assert.equal(at(d, 'progress'), 'en_route');
  assert.equal(at(d, 'position.estimated'), true);
  assert.equal(at(d, 'position.from_stop_id'), 'de:08111:6056');
  assert.equal(at(d, 'position.to_stop_id'), 'de:08111:6333');
  assert.ok(num(d, 'position.fraction') > 0.2 && num(d, 'position.fraction') < 0.9, `fraction ${num(d, 'position.fraction')}`);
  assert.ok(num(d, 'position.lat') < 48.776382 && num(d, 'position.lat') > 48.771175);
  // Progress, position and delay move on between polls: the answer says for which moment they were computed.
  const progressAt = str(d, 'progress_at');
  assert.ok(hasZone(progressAt), progressAt);
  // The zoned text keeps whole seconds.
  assert.ok(Date.parse(progressAt) >= Math.floor(asked / 1000) * 1000 && Date.parse(progressAt) <= answered, progressAt);
});

test('trip detail: a trip missing from the static schedule answers 200 with unresolved=true', async () => {
  const r = await app.get(`${LIVE}/trips/${UNRESOLVED_TRIP}`);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.unresolved'), true);
  assert.equal(at(r.json, 'data.position'), null);
  assert.equal(at(r.json, 'data.route_id'), UNRESOLVED_ROUTE);
  assert.equal(at(r.json, 'data.stop_updates.0.name'), 'Charlottenplatz');
});

test("a trip or route is a city's only where it stops: Stuttgart's U5 is no_data in Berlin, the ICE to Berlin answers there", async () => {
  const u5 = await app.get(`/api/v1/live/berlin/transit/trips/${U5_TRIP}`);
  assert.equal(at(u5.json, 'meta.source_status'), 'no_data');
  assert.equal(at(u5.json, 'data'), null);
  assert.match(str(u5.json, 'meta.reason'), /does not stop in Berlin/);
  const route = await app.get(`/api/v1/live/berlin/transit/routes/${U5_ROUTE}/status`);
  assert.equal(at(route.json, 'meta.source_status'), 'no_data');
  assert.match(str(route.json, 'meta.reason'), /no trip of this route stops in Berlin/);
  assert.equal(at((await app.get(`/api/v1/live/berlin/transit/trips/${ICE_TRIP}`)).json, 'meta.source_status'), 'ok');
  assert.equal(at((await app.get(`/api/v1/live/berlin/transit/routes/${ICE_ROUTE}/status`)).json, 'data.active_trips'), 1);
});

test('trip detail: unknown id is 200 no_data; a malformed id is 422', async () => {
  const r = await app.get(`${LIVE}/trips/123456789`);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  const bad = await app.get(`${LIVE}/trips/${encodeURIComponent('a b;c')}`);
  assert.equal(bad.status, 422);
  assert.equal(at(bad.json, 'code'), 'invalid_parameter');
});

test('route status: active trips, average and maximum delay; unknown route is no_data', async () => {
  const d0 = U5_DELAY_S;
  const r = await app.get(`${LIVE}/routes/${U5_ROUTE}/status`);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.refresh_seconds'), 45);
  assert.equal(at(r.json, 'data.active_trips'), 2);
  assert.equal(at(r.json, 'data.line'), 'U5');
  assert.equal(num(r.json, 'data.avg_delay_s'), d0 + 60);
  assert.equal(num(r.json, 'data.max_delay_s'), d0 + 120);
  assert.equal(num(r.json, 'data.max_delay_s') - num(r.json, 'data.avg_delay_s'), 60);
  const ice = await app.get(`${LIVE}/routes/${ICE_ROUTE}/status`);
  assert.equal(at(ice.json, 'data.active_trips'), 1);
  assert.equal(at(ice.json, 'data.max_delay_s'), 240);
  const none = await app.get(`${LIVE}/routes/999_1/status`);
  assert.equal(none.status, 200);
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');
});

test('transit summary: stops of the city in the static index, feed status and live links', async () => {
  const r = await app.get('/api/v1/cities/stuttgart/transit');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = at(r.json, 'data');
  assert.equal(at(d, 'schedule.stops_in_city'), 5);
  assert.equal(at(d, 'schedule.trips_total'), 3);
  assert.equal(at(d, 'realtime.trip_updates'), 4);
  assert.equal(at(d, 'realtime.alerts'), 1);
  assert.ok(hasZone(str(d, 'realtime.as_of')));
  assert.equal(at(d, 'links.departures'), '/api/v1/live/stuttgart/transit/departures');
});

test('volatile ids: a trip dropped by the feed is no_data after the next poll, and everything expires after the TTL', async () => {
  fake.get('/realtime-free.pb', () => ({ body: liveFeed(Date.now(), { withoutU5: true }) }));
  try {
    // The departures board of the last poll is rendered and kept in process: a new poll must replace it at once.
    const hasU5 = (r: { json: unknown }) => (at(r.json, 'data') === null ? [] : list<{ trip_id: string }>(r.json, 'data')).some((d) => d.trip_id === U5_TRIP);
    assert.equal(hasU5(await app.get(`${LIVE}/departures`)), true);
    // A poller with a 150 ms interval keeps its indexes for three intervals.
    const job = gtfsRtPoller(150);
    await job.run(app.rt, () => {}, new AbortController().signal);
    const gone = await app.get(`${LIVE}/trips/${U5_TRIP}`);
    assert.equal(at(gone.json, 'meta.source_status'), 'no_data');
    assert.equal(hasU5(await app.get(`${LIVE}/departures`)), false, 'the dropped trip left the departures with the poll');
    const route = await app.get(`${LIVE}/routes/${U5_ROUTE}/status`);
    assert.equal(at(route.json, 'data.active_trips'), 1);
    assert.equal(at((await app.get(`${LIVE}/trips/${ICE_TRIP}`)).json, 'meta.source_status'), 'ok');
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(at((await app.get(`${LIVE}/trips/${ICE_TRIP}`)).json, 'meta.source_status'), 'no_data');
    assert.equal(at((await app.get(`${LIVE}/routes/${ICE_ROUTE}/status`)).json, 'meta.source_status'), 'no_data');
    assert.equal(at((await app.get(`${LIVE}/departures`)).json, 'meta.source_status'), 'no_data');
  } finally {
    registerGtfs(fake);
    await pollGtfsRt(app.rt, { ttlMs: 120_000 });
  }
});

test('poller: a dead upstream fails the poll (counted against the source), endpoints stay 200', async () => {
  const fresh = await startApp({ ...fakeEnv(fake.url), STORE_PATH: storeDir() });
  try {
    fake.mode = 'down';
    await assert.rejects(pollGtfsRt(fresh.rt, { ttlMs: 1000 }), (e: unknown) => e instanceof UpstreamError);
    fake.mode = 'normal';
    for (const path of [`${LIVE}/departures`, `${LIVE}/trips/${U5_TRIP}`, `${LIVE}/routes/${U5_ROUTE}/status`, '/api/v1/cities/stuttgart/transit']) {
      const r = await fresh.get(path);
      assert.equal(r.status, 200, path);
      assert.equal(at(r.json, 'meta.source_status'), 'no_data', path);
    }
    // Realtime without the static schedule: trips resolve to unresolved=true, routes stay empty-filled.
    await pollGtfsRt(fresh.rt, { ttlMs: 60_000 });
    const t = await fresh.get(`${LIVE}/trips/${U5_TRIP}`);
    assert.equal(at(t.json, 'data.unresolved'), true);
  } finally {
    fake.mode = 'normal';
    await fresh.close();
  }
});

test('disabled: GTFS_RT_ENABLED=false answers 200 disabled with data null, jobs stay idle, no upstream call', async () => {
  const off = await startApp({ ...fakeEnv(fake.url), STORE_PATH: storeDir(), GTFS_RT_ENABLED: 'false' });
  try {
    const before = fake.count();
    for (const path of [`${LIVE}/departures`, `${LIVE}/trips/${U5_TRIP}`, `${LIVE}/routes/${U5_ROUTE}/status`, '/api/v1/cities/stuttgart/transit']) {
      const r = await off.get(path);
      assert.equal(r.status, 200, path);
      assert.equal(at(r.json, 'meta.source_status'), 'disabled', path);
      assert.equal(at(r.json, 'data'), null);
    }
    assert.equal(gtfsRtPoller().enabled(off.rt), false);
    assert.equal(GTFS_STATIC_JOB.enabled(off.rt), false);
    assert.equal(fake.count(), before);
  } finally {
    await off.close();
  }
});

test('poll process: with a SQLite file store the poll runs in a child process, and the app answers from what it wrote', async () => {
  const path = storeDir();
  const shared = await startApp({ ...fakeEnv(fake.url), STORE_PATH: path, GTFS_RT_POLL_PROCESS: 'child' }, { store: new SqliteStore(path) });
  try {
    await refreshGtfsStatic(shared.rt);
    assert.equal(pollsInChild(shared.rt), true);
    assert.equal(pollsInChild(app.rt), false, 'an in-memory store keeps the poll in process');
    const before = fake.count('/realtime-free.pb');
    const r = await runGtfsRtPoll(shared.rt, { ttlMs: 120_000 });
    assert.equal(childEntry().compiled, false, 'from the sources (tests) the child runs its TypeScript');
    assert.equal(fake.count('/realtime-free.pb'), before + 1);
    assert.equal(r.status.trip_updates, 4);
    assert.ok((r as { peak_rss_mb?: number }).peak_rss_mb! > 0, 'the child reports its own peak RSS');
    assert.equal(pollChildPid(), null, 'the poll child ends with its poll (GTFS_RT_POLL_CHILD_KEEP is off by default)');
    const t = await shared.get(`${LIVE}/trips/${U5_TRIP}`);
    assert.equal(at(t.json, 'meta.source_status'), 'ok');
    assert.equal(at(t.json, 'data.unresolved'), false);
    assert.equal(at(t.json, 'data.line'), 'U5');
    assert.equal(num(t.json, 'data.delay_s'), U5_DELAY_S);
    const dep = await shared.get(`${LIVE}/departures`);
    assert.ok(
      list<{ trip_id: string; stop_name: string | null }>(dep.json, 'data').some(
        (d: { trip_id: string; stop_name: string | null }) => d.trip_id === U5_TRIP && d.stop_name === 'Olgaeck',
      ),
    );
  } finally {
    stopGtfsChildren();
    await shared.close();
  }
});

/** Whether a process with this id still exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('GTFS_RT_POLL_CHILD_KEEP: off, each poll forks a child that is gone when the poll returns; on, the next poll reuses the same child', async () => {
  for (const keep of [false, true]) {
    const path = storeDir();
    const env = { ...fakeEnv(fake.url), STORE_PATH: path, GTFS_RT_POLL_PROCESS: 'child', GTFS_RT_POLL_CHILD_KEEP: String(keep) };
    const shared = await startApp(env, { store: new SqliteStore(path) });
    try {
      await refreshGtfsStatic(shared.rt);
      const pids: number[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await runGtfsRtPoll(shared.rt, { ttlMs: 120_000 });
        assert.equal(r.status.trip_updates, 4);
        const pid = pollChildPid();
        if (keep) {
          assert.ok(pid !== null && alive(pid), 'the kept child waits for the next poll');
          pids.push(pid);
        } else assert.equal(pid, null);
      }
      if (keep) assert.equal(pids[0], pids[1], 'both polls ran in one child');
      const dep = await shared.get(`${LIVE}/departures`);
      assert.equal(at(dep.json, 'meta.source_status'), 'ok', 'the app answers from what the child wrote');
    } finally {
      stopGtfsChildren();
      await shared.close();
    }
  }
});

test('poll child entry: the compiled app forks the compiled child, TypeScript sources the TypeScript child', () => {
  assert.deepEqual(childEntryFor('file:///srv/stadtdaten/dist/src/jobs/gtfs/child-entry.js'), {
    module: '/srv/stadtdaten/dist/src/gtfs-child.js',
    compiled: true,
  });
  assert.deepEqual(childEntryFor('file:///srv/stadtdaten/src/jobs/gtfs/child-entry.ts'), { module: '/srv/stadtdaten/src/gtfs-child.ts', compiled: false });
});

test('GTFS_RT_POLL_INTERVAL_S sets the poller cadence (default 45 s); out of range is a startup error', () => {
  assert.ok(CATALOG.jobs.has(GTFS_RT_POLLER), 'the live transit types name the poller');
  assert.equal(intervalOf(GTFS_RT_POLLER, loadAppConfig({})), 45_000);
  assert.equal(intervalOf(GTFS_RT_POLLER, loadAppConfig({ GTFS_RT_POLL_INTERVAL_S: '10' })), 10_000);
  assert.throws(() => loadAppConfig({ GTFS_RT_POLL_INTERVAL_S: '1' }));
});

test('first start: a poll due before the static index exists waits for it, so its boards and route ids come from the schedule', async () => {
  const path = storeDir();
  const fresh = await startApp({ ...fakeEnv(fake.url), STORE_PATH: path }, { store: new SqliteStore(path) });
  try {
    const poll = gtfsRtPoller(60_000).run(fresh.rt, () => {}, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 300));
    await refreshGtfsStatic(fresh.rt);
    await poll;
    const dep = await fresh.get(`${LIVE}/departures`);
    assert.equal(at(dep.json, 'meta.source_status'), 'ok');
    assert.ok(
      list<{ trip_id: string; stop_name: string | null }>(dep.json, 'data').some(
        (d: { trip_id: string; stop_name: string | null }) => d.trip_id === U5_TRIP && d.stop_name === 'Olgaeck',
      ),
    );
    const route = await fresh.get(`${LIVE}/routes/${U5_ROUTE}/status`);
    assert.equal(at(route.json, 'meta.source_status'), 'ok');
  } finally {
    stopGtfsChildren();
    await fresh.close();
  }
});

test('departures page like every REST list: a limit sends that page of the full window, normalised, with the total', async () => {
  const all = await app.get(`${LIVE}/departures`);
  const page = await app.get(`${LIVE}/departures?limit=1&offset=1`);
  assert.equal(page.status, 200);
  assert.equal(at(page.json, 'data.length'), 1);
  assert.equal(at(page.json, 'meta.pagination.total'), at(all.json, 'data.length'));
  assert.deepEqual(at(page.json, 'data.0'), at(all.json, 'data.1'));
  assert.ok(hasZone(str(page.json, 'data.0.expected_departure_at')));
  assert.equal(at(page.json, 'meta.refresh_seconds'), 45);
});
