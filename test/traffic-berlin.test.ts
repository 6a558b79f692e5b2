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

test('parser: VIZ GeoJSON (GeometryCollection, German validity text, subtype and severity)', () => {
  const events = parseViz(JSON.parse(fixture('berlin-viz/baustellen_sperrungen_viz.json').toString()) as VizCollection);
  assert.equal(events.length, 4);
  const fest = nth(events, 0);
  assert.equal(fest.type, 'closure');
  assert.equal(fest.blocked, true);
  assert.equal(fest.road, 'Blücherstraße');
  assert.equal(fest.start, '2026-06-05T10:00:00+02:00');
  assert.equal(fest.end, '2026-06-10T23:59:00+02:00');
  assert.equal(fest.lat, 52.495996);
  assert.equal(fest.lon, 13.389478);
  assert.equal(fest.geometry?.type, 'LineString');
  assert.equal(fest.source, 'berlin-viz');
  assert.deepEqual(fest.raw?.validity, { from: '05.06.2026 10:00', to: '10.06.2026 23:59' });
  assert.equal(nth(events, 1).type, 'roadworks');
  assert.equal(nth(events, 1).blocked, false);
  assert.equal(nth(events, 2).blocked, true, 'Fahrtrichtungssperrung closes one direction');
  assert.equal(nth(events, 3).type, 'warning');
  assert.equal(nth(events, 3).end, null);
  assert.equal(vizTime('31.12.2026'), '2026-12-31T00:00:00+01:00');
  assert.throws(() => parseViz({ type: 'Feature' }), /FeatureCollection/);
});

test('GET /live/berlin/traffic-reports: every report, zoned validity, distance from the city point', async () => {
  const r = await ctx.app.get('/api/v1/live/berlin/traffic-reports');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(obj(r.json, 'meta.counts'), { roadworks: 2, closure: 1, warning: 1 });
  const items = list<Ev & { distance_km: number }>(r.json, 'data');
  assert.equal(items.length, 4);
  assert.ok(items.every((e) => e.distance_km < 10));
  assert.equal(at(r.json, 'data.0.beginn'), '2026-06-05T10:00:00+02:00', 'deprecated twin of start');
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/by-2-0');
  assert.equal(at(r.json, 'meta.as_of'), '2026-06-05T09:31:00+02:00', 'newest tstore of the feed');
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
  // The Köln item served on the A100 lies outside Berlin's radius: only the VIZ closure and disruption remain.
  assert.deepEqual(
    incidents.map((e) => [e.source, e.type]),
    [
      ['berlin-viz', 'closure'],
      ['berlin-viz', 'warning'],
    ],
  );
  assert.deepEqual(at(inc.json, 'meta.city_feed'), { type: 'traffic-reports-berlin', events: 2 });
  const rw = await ctx.app.get('/api/v1/live/berlin/roadworks');
  assert.deepEqual(
    list<Ev>(rw.json, 'data').map((e) => e.type),
    ['roadworks', 'roadworks'],
  );
});

test('motorway feed down: Berlin incidents still answer from the city feed, all roads named as failed', async () => {
  fake.get(/^\/o\/autobahn\//, { status: 500, body: 'boom' });
  const r = await fresh((app) => app.get('/api/v1/live/berlin/incidents'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal((at(r.json, 'meta.failed_roads') as string[]).length, 9);
  assert.equal(list(r.json, 'data').length, 2);
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
