import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerAutobahn } from './fixtures/autobahn/routes.ts';
import { register as registerBerlinViz } from './fixtures/berlin-viz/routes.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, obj } from './helpers/json.ts';
import { nth } from './helpers/must.ts';
import { parseViz, vizTime, type VizCollection } from '../src/sources/berlin-viz/reports.ts';
import { DEPRECATED_SINCE } from '../src/http/deprecation.ts';

const ctx = useFakeApp((fake) => {
  registerAutobahn(fake);
  registerBerlinViz(fake);
});
const { fake } = ctx;
const VIZ = '/daten/baustellen_sperrungen_viz.json';
const VIZ_RECORDING = 'berlin-viz/baustellen_sperrungen_viz-2026-04-15.json';

async function fresh<T>(run: (app: Awaited<ReturnType<typeof startApp>>) => Promise<T>): Promise<T> {
  const app = await startApp(fakeEnv(fake.url));
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

interface Ev {
  type: string;
  source: string;
  blocked: boolean | null;
  start: string | null;
  end: string | null;
}

test('parser: the recorded VIZ answer of 2026-04-15 (ids, ISO validity, is_future, several lines, plain Points)', () => {
  const events = parseViz(JSON.parse(fixture(VIZ_RECORDING).toString()) as VizCollection);
  assert.equal(events.length, 32, 'the first 30 reports, the one Störung and the newest report of the recording');
  const first = nth(events, 0);
  assert.equal(first.id, '8/2025');
  assert.equal(first.type, 'roadworks');
  assert.equal(first.blocked, false, 'keine Sperrung');
  assert.equal(first.road, 'Wolfensteindamm (Steglitz)');
  assert.equal(first.direction, 'Beidseitig');
  assert.equal(first.start, '2025-07-23T07:00:00+02:00', 'ISO wall-clock text is Berlin time');
  assert.equal(first.end, '2026-05-29T17:00:00+02:00');
  assert.equal(first.lat, 52.45210087026612);
  assert.equal(first.lon, 13.318904591788835);
  assert.equal(first.geometry?.type, 'LineString');
  assert.equal(first.future, null, 'no is_future member: unknown');
  const both = nth(events, 2);
  assert.equal(both.id, '30/2025');
  assert.equal(both.blocked, true, 'Fahrtrichtungssperrung closes one direction');
  assert.equal(both.geometry?.type, 'MultiLineString', 'two LineStrings kept together');
  assert.equal((both.geometry?.coordinates as unknown[]).length, 2);
  const point = nth(events, 4);
  assert.equal(point.id, '96/2025');
  assert.equal(point.geometry?.type, 'Point', 'a plain Point geometry, no collection');
  assert.equal(point.lat, 52.52378719769318);
  const open = nth(events, 26);
  assert.equal(open.id, '449/2025');
  assert.equal(open.end, null, 'validity.to null: open end');
  const uber = nth(events, 30);
  assert.equal(uber.type, 'warning', 'Störung');
  assert.equal(uber.future, true);
  assert.equal(uber.start, '2026-04-16T18:00:00+02:00');
});

test('parser: the older German validity text (built file) still reads', () => {
  const events = parseViz(JSON.parse(fixture('berlin-viz/baustellen_sperrungen_viz.json').toString()) as VizCollection);
  assert.equal(events.length, 4);
  const fest = nth(events, 0);
  assert.equal(fest.type, 'closure');
  assert.equal(fest.start, '2026-06-05T10:00:00+02:00');
  assert.equal(fest.end, '2026-06-10T23:59:00+02:00');
  assert.equal(nth(events, 3).end, null);
  assert.equal(vizTime('31.12.2026'), '2026-12-31T00:00:00+01:00');
  assert.equal(vizTime('2026-12-31'), '2026-12-31T00:00:00+01:00');
  assert.equal(vizTime('2026-13-45T07:00'), null, 'no such day');
  assert.throws(() => parseViz({ type: 'Feature' }), /FeatureCollection/);
});

test('GET /live/berlin/traffic-reports: every report of the recording, zoned validity, distance from the city point', async () => {
  const r = await ctx.app.get('/api/v1/live/berlin/traffic-reports');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(obj(r.json, 'meta.counts'), { roadworks: 15, closure: 16, warning: 1 });
  const items = list<Ev & { distance_km: number; id: string }>(r.json, 'data');
  assert.equal(items.length, 32);
  assert.equal(at(r.json, 'data.0.id'), '8/2025');
  assert.ok(items.every((e) => e.distance_km < 40));
  assert.equal(at(r.json, 'data.0.beginn'), '2025-07-23T07:00:00+02:00', 'deprecated twin of start');
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/by-2-0');
  assert.equal(at(r.json, 'meta.as_of'), '2026-04-15T14:32:47+02:00', 'newest tstore of the feed');
  assert.equal(at(r.json, 'data.0.geometry.art'), undefined, 'GeoJSON keeps its own members');
});

test('traffic-reports is Berlin and Hannover only: another city is not_covered, naming the two', async () => {
  const r = await ctx.app.get('/api/v1/live/hamburg/traffic-reports');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(r.json, 'meta.covered_cities'), ['berlin', 'hannover']);
});

test('incidents and roadworks of Berlin merge the VIZ reports with the motorway feed, each item naming its source', async () => {
  fake.get('/o/autobahn/A100/services/warning', () => ({
    json: { warning: [JSON.parse(fixture('autobahn/item_warning_A1_koeln_2026-03-29.json').toString())] },
  }));
  const inc = await fresh((app) => app.get('/api/v1/live/berlin/incidents'));
  assert.equal(at(inc.json, 'meta.source_status'), 'ok');
  const incidents = list<Ev>(inc.json, 'data');
  // The Köln item served on the A100 lies outside Berlin's radius: only the VIZ closures and the disruption remain.
  assert.deepEqual([...new Set(incidents.map((e) => `${e.source}:${e.type}`))].sort(), ['berlin-viz:closure', 'berlin-viz:warning']);
  assert.equal(incidents.length, 17);
  assert.deepEqual(at(inc.json, 'meta.city_feed'), { type: 'traffic-reports-berlin', events: 17 });
  const rw = await ctx.app.get('/api/v1/live/berlin/roadworks');
  const works = list<Ev>(rw.json, 'data');
  assert.equal(works.length, 15);
  assert.ok(works.every((e) => e.type === 'roadworks'));
});

test('motorway feed down: Berlin incidents still answer from the city feed, all roads named as failed', async () => {
  fake.get(/^\/o\/autobahn\//, { status: 500, body: 'boom' });
  const r = await fresh((app) => app.get('/api/v1/live/berlin/incidents'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal((at(r.json, 'meta.failed_roads') as string[]).length, 9);
  assert.equal(list(r.json, 'data').length, 17);
});

test('empty VIZ feed is no_data; malformed VIZ is 503; both feeds down is 503', async () => {
  fake.get(VIZ, { json: { type: 'FeatureCollection', features: [] } });
  const empty = await fresh((app) => app.get('/api/v1/live/berlin/traffic-reports'));
  assert.equal(at(empty.json, 'meta.source_status'), 'no_data');
  fake.get(VIZ, { body: '{"type":"FeatureCollection","features":[', headers: { 'content-type': 'application/json' } });
  const bad = await fresh((app) => app.get('/api/v1/live/berlin/traffic-reports'));
  assert.equal(bad.status, 503);
  assert.equal(at(bad.json, 'code'), 'upstream_unavailable');
  fake.mode = 'error';
  const down = await fresh((app) => app.get('/api/v1/live/berlin/incidents'));
  assert.equal(down.status, 503);
});

test('verkehrsmeldungen alias (Berlin): same body, Deprecation and Link', async () => {
  await ctx.app.get('/api/v1/live/berlin/traffic-reports');
  const a = await ctx.app.get('/api/v1/live/berlin/verkehrsmeldungen');
  const s = await ctx.app.get('/api/v1/live/berlin/traffic-reports');
  assert.equal(a.status, 200);
  assert.equal(a.text, s.text);
  assert.equal(a.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
  assert.equal(a.headers.get('link'), '</api/v1/live/berlin/traffic-reports>; rel="successor-version"');
});
