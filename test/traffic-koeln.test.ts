import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { register as registerHamburgVerkehrslage } from './fixtures/hamburg-verkehrslage/routes.ts';
import { KOELN_STRECKE, register as registerKoelnVerkehr } from './fixtures/koeln-verkehr/routes.ts';
import type { FakeUpstream } from './helpers/fake-upstream.ts';
import { at, list, obj, str } from './helpers/json.ts';

/** traffic-flow answered per city by its own source: Hamburg's OGC API, Köln's ArcGIS MapServer. */

const ctx = useFakeApp((fake: FakeUpstream) => {
  registerHamburgVerkehrslage(fake);
  registerKoelnVerkehr(fake);
});
const { fake } = ctx;
const HAMBURG_ITEMS = '/datasets/v1/verkehrslage/collections/verkehrslage/items';

async function fresh<T>(run: (app: TestApp) => Promise<T>): Promise<T> {
  const app = await startApp(fakeEnv(fake.url));
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

interface Segment {
  id: string;
  state: string | null;
  lat: number | null;
  lon: number | null;
  geometry: { type: string; coordinates: unknown[] } | null;
  raw: Record<string, unknown> | null;
}

interface SourceRow {
  source: string;
  breaker_state: string;
  last_failure: string | null;
  unlocks: string[];
  variant_for: { type: string; cities: string[] }[];
}

test('Köln: segments from the Köln source, codes mapped, unknown codes null with the raw code, meta and attribution name it', async () => {
  const r = await ctx.app.get('/api/v1/live/koeln/traffic-flow');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.source'), 'koeln-verkehr');
  assert.equal(at(r.json, 'meta.license'), 'dl-de/zero-2-0');
  assert.equal(at(r.json, 'attribution.text'), 'Stadt Köln');
  assert.match(str(r.json, 'attribution.source'), /Stadt Köln/);
  assert.equal(at(r.json, 'data.segments_total'), 7);
  assert.deepEqual(obj(r.json, 'data.counts'), { free: 2, dense: 1, slow: 0, congested: 2 });
  assert.equal(at(r.json, 'data.congested_share_pct'), 40);
  assert.equal(at(r.json, 'meta.unknown_state'), 2);
  const segs = list<Segment>(r.json, 'data.segments');
  assert.deepEqual(
    segs.map((s) => [s.id, s.state]),
    [
      ['104', 'congested'],
      ['105', 'congested'],
      ['103', 'dense'],
      ['106', null],
      ['107', null],
    ],
  );
  const unknown = segs.find((s) => s.id === '107');
  assert.deepEqual(unknown?.raw, { auslastung: 7, tendenz: 2 });
  const first = segs[0]!;
  assert.equal(first.geometry?.type, 'LineString');
  assert.equal(first.lon, 6.97533);
  assert.equal(first.lat, 50.94902);
  assert.equal(segs[1]!.geometry?.type, 'MultiLineString');
  assert.equal(fake.count(HAMBURG_ITEMS), 0, 'Köln never asks Hamburg');
  const q = new URL(fake.requests.find((x) => x.url.startsWith(KOELN_STRECKE))?.url ?? '', 'http://x').searchParams;
  assert.equal(q.get('outSR'), '4326');
  assert.equal(q.get('f'), 'json');
});

test('Hamburg still from Hamburg, without a request to Köln', async () => {
  const r = await ctx.app.get('/api/v1/live/hamburg/traffic-flow');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.source'), 'hamburg-verkehrslage');
  assert.match(str(r.json, 'attribution.text'), /Hamburg/);
  assert.deepEqual(obj(r.json, 'data.counts'), { free: 21163, dense: 702, slow: 311, congested: 127 });
  assert.equal(fake.count(KOELN_STRECKE), 0);
});

test('another city is not_covered with both cities listed, without a request', async () => {
  const r = await ctx.app.get('/api/v1/live/muenchen/traffic-flow');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(r.json, 'meta.covered_cities'), ['hamburg', 'koeln']);
  assert.equal(fake.count(), 0);
});

test('coverage, overview, /api/v1/sources and the data-type reference know both sources', async () => {
  const c = await ctx.app.get('/api/v1/coverage');
  const row = list<{ type: string; source: string; covered_cities: string[]; variants: { cities: string[]; source: string; source_state: string }[] }>(
    c.json,
    'data',
  ).find((t) => t.type === 'traffic-flow');
  assert.ok(row);
  assert.equal(row.source, 'hamburg-verkehrslage');
  assert.deepEqual(row.covered_cities, ['hamburg', 'koeln']);
  assert.deepEqual(row.variants, [{ cities: ['koeln'], source: 'koeln-verkehr', tier: 'A', source_state: 'answering', answered_by: 'koeln-verkehr' }]);
  const city = await ctx.app.get('/api/v1/coverage/koeln');
  const item = list<{ type: string; source: string; cell: string }>(city.json, 'data.items').find((t) => t.type === 'traffic-flow');
  assert.equal(item?.source, 'koeln-verkehr');
  assert.equal(item?.cell, 'answering');
  const o = await ctx.app.get('/api/v1/cities/koeln/overview');
  const ov = list<{ type: string; available: boolean }>(o.json, 'data.data_types').find((t) => t.type === 'traffic-flow');
  assert.equal(ov?.available, true);
  const s = await ctx.app.get('/api/v1/sources?limit=200');
  const koeln = list<SourceRow>(s.json, 'data').find((x) => x.source === 'koeln-verkehr');
  assert.deepEqual(koeln?.variant_for, [{ type: 'traffic-flow', cities: ['koeln'] }]);
  const reference = await ctx.app.get('/docs/data-types');
  assert.match(reference.text, /<section id="traffic-flow">[^]*?Sources per city: koeln: Stadt Köln[^]*?<\/section>/);
});

test('Köln down: an honest 503 naming the Köln source; Hamburg keeps its closed breaker and answers', async () => {
  fake.get(KOELN_STRECKE, { status: 502, body: 'Bad Gateway' });
  await fresh(async (app) => {
    for (let i = 0; i < 6; i++) {
      const r = await app.get('/api/v1/live/koeln/traffic-flow');
      assert.equal(r.status, 503);
      assert.equal(at(r.json, 'code'), 'upstream_unavailable');
      assert.equal(at(r.json, 'source'), 'koeln-verkehr');
    }
    const s = await app.get('/api/v1/sources?limit=200');
    const rows = list<SourceRow>(s.json, 'data');
    const koeln = rows.find((x) => x.source === 'koeln-verkehr');
    const hamburg = rows.find((x) => x.source === 'hamburg-verkehrslage');
    assert.equal(koeln?.breaker_state, 'OPEN');
    assert.notEqual(koeln?.last_failure, null);
    assert.equal(hamburg?.breaker_state, 'CLOSED');
    assert.equal(hamburg?.last_failure, null);
    const h = await app.get('/api/v1/live/hamburg/traffic-flow');
    assert.equal(at(h.json, 'meta.source_status'), 'ok');
  });
});

test('malformed JSON from Köln is a problem, never a 500', async () => {
  fake.get(KOELN_STRECKE, { body: '{"features":[{"attributes":', headers: { 'content-type': 'application/json' } });
  const r = await fresh((app) => app.get('/api/v1/live/koeln/traffic-flow'));
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
});

test('an ArcGIS error object in a 200 is an upstream error, not ok', async () => {
  fake.get(KOELN_STRECKE, { json: { error: { code: 400, message: 'Unable to complete operation.', details: [] } } });
  const r = await fresh((app) => app.get('/api/v1/live/koeln/traffic-flow'));
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  assert.doesNotMatch(r.text, /Unable to complete/);
});

test('an empty layer is no_data', async () => {
  fake.get(KOELN_STRECKE, { json: { displayFieldName: 'objectid', geometryType: 'esriGeometryPolyline', fields: [], features: [] } });
  const r = await fresh((app) => app.get('/api/v1/live/koeln/traffic-flow'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
});

test('a repeat Köln request is a HIT of the Köln answer, without a second upstream call', async () => {
  await fresh(async (app) => {
    const first = await app.get('/api/v1/live/koeln/traffic-flow');
    const again = await app.get('/api/v1/live/koeln/traffic-flow');
    assert.equal(at(again.json, 'meta.cache_status'), 'HIT');
    assert.equal(at(again.json, 'meta.source'), 'koeln-verkehr');
    assert.equal(again.headers.get('cache-control'), first.headers.get('cache-control'));
    assert.equal(fake.count(KOELN_STRECKE), 1);
  });
});
