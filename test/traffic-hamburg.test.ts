import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerHamburgVerkehrslage } from './fixtures/hamburg-verkehrslage/routes.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, num, obj, str } from './helpers/json.ts';
import { nth } from './helpers/must.ts';
import { parseClassPage, utcStamp, type ItemsPage } from '../src/sources/hamburg-verkehrslage/verkehrslage.ts';
import { DEPRECATED_SINCE } from '../src/http/deprecation.ts';

const ctx = useFakeApp(registerHamburgVerkehrslage);
const { fake } = ctx;
const ITEMS = '/datasets/v1/verkehrslage/collections/verkehrslage/items';

async function fresh<T>(run: (app: Awaited<ReturnType<typeof startApp>>) => Promise<T>): Promise<T> {
  const app = await startApp(fakeEnv(fake.url));
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

test('parser: OGC items page, count from numberMatched, UTC stamp without zone, midpoint', () => {
  const page = JSON.parse(fixture('hamburg-verkehrslage/items-gestaut.json').toString()) as ItemsPage;
  const p = parseClassPage('gestaut', page);
  assert.equal(p.matched, 127);
  assert.equal(p.segments.length, 2);
  const s = nth(p.segments, 0);
  assert.equal(s.state, 'congested');
  assert.equal(s.id, '60033');
  assert.equal(s.road_class, 'Bundesautobahn');
  assert.equal(s.lat, 53.59932);
  assert.equal(s.lon, 9.94511);
  assert.equal(s.observed_at, '2026-06-13T22:40:00+02:00');
  assert.equal(p.asOf, '2026-06-13T22:40:00+02:00');
  assert.equal(utcStamp('2026-01-13 20:40:00'), '2026-01-13T21:40:00+01:00');
  assert.throws(() => parseClassPage('dicht', { type: 'FeatureCollection', features: [] }), /numberMatched/);
});

test('traffic-situation: counts per class, congested segments, as_of from the snapshot, one request per class', async () => {
  const r = await ctx.app.get('/api/v1/live/hamburg/traffic-situation');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(num(r.json, 'data.segments_total'), 22303);
  assert.deepEqual(obj(r.json, 'data.by_state'), { fliessend: 21163, dicht: 702, zaeh: 311, gestaut: 127 });
  assert.equal(list(r.json, 'data.congested').length, 2);
  assert.equal(at(r.json, 'data.congested_truncated'), true);
  assert.equal(at(r.json, 'meta.as_of'), '2026-06-13T22:40:00+02:00');
  assert.equal(fake.count(ITEMS), 4);
  const classes = fake.requests.map((q) => new URL(q.url, 'http://x').searchParams.get('zustandsklasse')).sort();
  assert.deepEqual(classes, ['dicht', 'fliessend', 'gestaut', 'zäh']);
  const free = fake.requests.find((q) => q.url.includes('zustandsklasse=fliessend'));
  assert.match(free?.url ?? '', /limit=1(&|$)/, 'free-flowing segments are only counted');
});

test('traffic-flow: the shared vocabulary, worst segments first, the same snapshot (no new requests)', async () => {
  await ctx.app.get('/api/v1/live/hamburg/traffic-situation');
  const before = fake.count(ITEMS);
  const r = await ctx.app.get('/api/v1/live/hamburg/traffic-flow');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(obj(r.json, 'data.counts'), { free: 21163, dense: 702, slow: 311, congested: 127 });
  assert.equal(at(r.json, 'data.congested_share_pct'), 2);
  const states = list<{ state: string }>(r.json, 'data.segments').map((s) => s.state);
  assert.deepEqual(states, ['congested', 'congested', 'slow', 'dense', 'dense']);
  assert.equal(fake.count(ITEMS), before);
});

test('traffic-flow elsewhere is not_covered with covered_cities, without a request', async () => {
  const r = await ctx.app.get('/api/v1/live/muenchen/traffic-flow');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(r.json, 'meta.covered_cities'), ['hamburg', 'koeln']);
  assert.match(str(r.json, 'meta.note'), /Hamburg/);
  assert.equal(fake.count(ITEMS), 0);
});

test('an empty snapshot (numberMatched 0 everywhere) is no_data', async () => {
  fake.get(ITEMS, (_req, url) => ({
    json: { type: 'FeatureCollection', numberMatched: 0, numberReturned: 0, timeStamp: '2026-06-13T20:42:11Z', features: [], links: [] },
    headers: { 'x-class': url.searchParams.get('zustandsklasse') ?? '' },
  }));
  const r = await fresh((app) => app.get('/api/v1/live/hamburg/traffic-situation'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
});

test('malformed or failing upstream is a 503 problem, never a 500', async () => {
  fake.get(ITEMS, { body: '{"type":"FeatureCollection","features":', headers: { 'content-type': 'application/geo+json' } });
  const r = await fresh((app) => app.get('/api/v1/live/hamburg/traffic-flow'));
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  fake.get(ITEMS, { json: { type: 'Feature' } });
  const s = await fresh((app) => app.get('/api/v1/live/hamburg/traffic-situation'));
  assert.equal(s.status, 503);
});

test('verkehrslage alias: same body as traffic-situation, Deprecation and Link', async () => {
  await ctx.app.get('/api/v1/live/hamburg/traffic-situation');
  const a = await ctx.app.get('/api/v1/live/hamburg/verkehrslage');
  const s = await ctx.app.get('/api/v1/live/hamburg/traffic-situation');
  assert.equal(a.text, s.text);
  assert.equal(a.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
  assert.equal(a.headers.get('link'), '</api/v1/live/hamburg/traffic-situation>; rel="successor-version"');
});

test('coverage and overview show traffic-flow as partial, with covered_cities and a note', async () => {
  const c = await ctx.app.get('/api/v1/coverage');
  const row = list<{ type: string; partial: boolean; covered_cities: string[]; note: string }>(c.json, 'data').find((t) => t.type === 'traffic-flow');
  assert.ok(row, 'traffic-flow row');
  assert.equal(row.partial, true);
  assert.deepEqual(row.covered_cities, ['hamburg', 'koeln']);
  assert.match(row.note, /Hamburg/);
  const page = await ctx.app.get('/coverage');
  assert.match(page.text, /title="Live traffic flow[^"]*Hamburg[^"]*">traffic-flow<\/th>/, 'the matrix column names the coverage');
  const o = await ctx.app.get('/api/v1/cities/muenchen/overview');
  const item = list<{ type: string; available: boolean; covered_cities?: string[]; note?: string }>(o.json, 'data.data_types').find(
    (t) => t.type === 'traffic-flow',
  );
  assert.ok(item);
  assert.equal(item.available, false);
  assert.deepEqual(item.covered_cities, ['hamburg', 'koeln']);
  assert.match(item.note ?? '', /not available for München/);
});
