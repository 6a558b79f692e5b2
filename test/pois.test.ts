import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectUnknownCity } from './helpers/status-rules.ts';
import { registerOverpass } from './fixtures/overpass/routes.ts';
import { CITY_BY_SLUG, type City } from '../src/cities/register.ts';
import { assertComplete, parsePoiAnswer, parsePoiElement, type OverpassAnswer } from '../src/sources/overpass/parse.ts';
import { poiQuery, ITEM_CAP } from '../src/sources/overpass/query.ts';
import { POI_TYPES, POI_TYPE_BY_ID } from '../src/sources/overpass/poi-types.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { createPoisJob } from '../src/jobs/pois-precompute.ts';
import { refreshPois } from '../src/jobs/pois/refresh.ts';
import { dueTargets } from '../src/jobs/pois/due.ts';
import { nth } from './helpers/must.ts';
import { at, list, str } from './helpers/json.ts';

const json = (name: string): OverpassAnswer => JSON.parse(fixture(`overpass/${name}`).toString('utf8'));
const berlin = CITY_BY_SLUG.get('berlin') as City;
const hospital = POI_TYPE_BY_ID.get('hospital')!;
const quiet = () => {};
const noAbort = new AbortController().signal;

const ctx = useFakeApp(registerOverpass);
const { fake } = ctx;

test('parser: real out-center-tags answer: node coordinates, way centre, address and opening hours', () => {
  const els = json('around600_amenity-fast_food_muenchen_out-center-tags_TRUNCATED.json').elements!;
  const pois = els.map((e) => parsePoiElement(e)!);
  const bk = nth(pois, 0),
    tina = nth(pois, 1),
    burrito = nth(pois, 2);
  assert.deepEqual(bk, {
    name: 'Burger King',
    lat: 48.1377004,
    lon: 11.5645217,
    street: 'Sonnenstraße',
    house_number: '6',
    post_code: '80331',
    place: 'München',
    opening_hours: 'Su-We 09:00-01:00; Th 09:00-04:00; Fr-Sa 09:00-06:00; Su 10:00-01:00',
    osm_type: 'node',
    osm_id: 260651990,
  });
  assert.equal(tina.place, null);
  assert.equal(tina.post_code, null);
  assert.equal(burrito.osm_type, 'way');
  assert.equal(burrito.lat, 48.1383731);
  assert.equal(burrito.lon, 11.5654995);
  assert.equal(burrito.opening_hours, 'Mo-Sa 10:00-20:00');
});

test('parser: a "runtime error" remark (HTTP 200) is a failure; other remarks are not', () => {
  assert.throws(
    () => assertComplete(json('remark-runtime-error_timeout.json')),
    (e: unknown) => e instanceof UpstreamError && /timed out/.test(e.message),
  );
  assert.throws(() => parsePoiAnswer(json('remark-runtime-error_timeout.json')), UpstreamError);
  assert.doesNotThrow(() => assertComplete(json('remark-runtime-remark.json')));
});

test('parser: POI answer gives the out-count total, items sorted by name (unnamed last) and a zoned OSM base time', () => {
  const a = parsePoiAnswer(json('pois_hospital_berlin.json'));
  assert.equal(a.total_available, 6);
  assert.equal(a.items.length, 6);
  assert.deepEqual(
    a.items.map((i) => i.name),
    [
      'Charité Campus Benjamin Franklin',
      'Charité Campus Mitte',
      'Charité Campus Virchow-Klinikum',
      'DRK Kliniken Berlin Westend',
      'Vivantes Klinikum Am Urban',
      null,
    ],
  );
  const virchow = nth(a.items, 2);
  assert.equal(virchow.osm_type, 'relation');
  assert.equal(virchow.lat, 52.5410447);
  assert.equal(virchow.post_code, '13353');
  assert.equal(a.osm_base, '2026-08-01T09:24:36+02:00');
});

test('parser: an answer without the echoed area (boundary unknown to Overpass) fails instead of counting zero', () => {
  assert.throws(() => parsePoiAnswer(json('pois_unknown-area.json')), /area/);
  assert.equal(parsePoiAnswer(json('pois_none_berlin.json')).total_available, 0);
});

test('query: area from the OSM relation (3600000000 + id), AGS fallback, union of tag groups, count and capped sample', () => {
  const q = poiQuery(berlin, hospital);
  assert.match(q, /^\[out:json\]\[timeout:\d+\];/);
  assert.match(q, /area\(id:3600062422\)->\.city;/);
  assert.match(q, /nwr\["amenity"="hospital"\]\(area\.city\);/);
  assert.match(q, /out count;\nout tags center 500;$/);
  const noRel = poiQuery({ ags: '05315000', osm_relation: null }, hospital);
  assert.match(noRel, /area\["de:amtlicher_gemeindeschluessel"="05315000"\]\["boundary"="administrative"\]->\.city;/);
  const pools = poiQuery(berlin, POI_TYPE_BY_ID.get('swimming_pool')!);
  assert.match(
    pools,
    /\(nwr\["leisure"="sports_centre"\]\["sport"~"\(\^\|;\)swimming\(;\|\$\)"\]\(area\.city\); nwr\["leisure"="water_park"\]\(area\.city\); nwr\["leisure"="swimming_pool"\]\["access"~"\^\(yes\|public\)\$"\]\(area\.city\);\);/,
  );
  assert.ok(POI_TYPES.length >= 15);
});

test('GET pois before any precompute: 200 no_data saying the precompute has not run', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/pois?type=hospital');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /precompute has not run/);
  assert.equal(at(r.json, 'attribution.text'), '© OpenStreetMap contributors, ODbL');
  assert.equal(at(r.json, 'attribution.tier'), 'B');
  assert.equal(fake.count(), 0, 'pois never calls Overpass on a request');
});

test('GET pois: missing type and unknown type are 422; the hint lists every allowed type', async () => {
  const missing = await ctx.app.get('/api/v1/cities/berlin/pois');
  assert.equal(missing.status, 422);
  assert.equal(at(missing.json, 'code'), 'invalid_parameter');
  const unknown = await ctx.app.get('/api/v1/cities/berlin/pois?type=casino');
  assert.equal(unknown.status, 422);
  for (const t of POI_TYPES) assert.ok(str(unknown.json, 'hint').includes(t.id), `hint lists ${t.id}`);
});

test('GET pois: unknown city is 404', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/pois?type=hospital');
});

test('job run against the fake Overpass fills the store; pois then answers ok with total, items and pagination', async () => {
  const logs: string[] = [];
  await createPoisJob({ cities: [berlin], pauseMs: 0 }).run(ctx.app.rt, (m) => logs.push(m), noAbort);
  assert.equal(fake.count('/api/interpreter'), POI_TYPES.length, 'one query per type');
  const req = nth(fake.requests, 0);
  assert.equal(req.method, 'POST');
  assert.match(new URLSearchParams(req.body).get('data') ?? '', /area\(id:3600062422\)/);
  assert.match(String(req.headers['user-agent']), /Stadtdaten/);
  assert.match(logs.join('\n'), new RegExp(`${POI_TYPES.length} stored, 0 failed`));

  const r = await ctx.app.get('/api/v1/cities/berlin/pois?type=hospital');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.total_available'), 6);
  assert.equal(at(r.json, 'data.items.length'), 6);
  assert.equal(at(r.json, 'data.truncated'), false);
  assert.equal(at(r.json, 'meta.as_of'), '2026-08-01T09:24:36+02:00');
  assert.equal(at(r.json, 'meta.item_cap'), ITEM_CAP);
  assert.match(str(r.json, 'meta.computed_at'), /[+-]\d{2}:\d{2}$/);
  const mitte = at(r.json, 'data.items.1');
  assert.equal(at(mitte, 'name'), 'Charité Campus Mitte');
  assert.equal(at(mitte, 'street'), 'Charitéplatz');
  assert.equal(at(mitte, 'house_number'), '1');
  assert.equal(at(mitte, 'post_code'), '10117');
  assert.equal(at(mitte, 'plz'), '10117', 'deprecated alias added by the normaliser');
  assert.equal(at(mitte, 'osm_id'), 25381214);

  const page = await ctx.app.get('/api/v1/cities/berlin/pois?type=hospital&limit=2&offset=2');
  assert.equal(at(page.json, 'data.total_available'), 6);
  assert.deepEqual(
    list<{ name: string }>(page.json, 'data.items').map((i: { name: string }) => i.name),
    ['Charité Campus Virchow-Klinikum', 'DRK Kliniken Berlin Westend'],
  );
  assert.equal(at(page.json, 'meta.pagination.total'), 6);
  assert.equal(at(page.json, 'meta.pagination.returned'), 2);

  const none = await ctx.app.get('/api/v1/cities/berlin/pois?type=cinema');
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');
  assert.equal(at(none.json, 'meta.total_available'), 0);

  assert.deepEqual(await dueTargets(ctx.app.rt.store, [berlin], POI_TYPES, 7 * 86400_000), [], 'nothing due right after a run');
  fake.reset();
  await createPoisJob({ cities: [berlin], pauseMs: 0 }).run(ctx.app.rt, quiet, noAbort);
  assert.equal(fake.count(), 0, 'a second run within the week queries nothing');
});

test('a timeout remark keeps the previous stored value and holds the pair back from the next scheduled run', async () => {
  fake.post('/api/interpreter', { file: 'overpass/remark-runtime-error_timeout.json' });
  const s = await refreshPois(ctx.app.rt, [{ city: berlin, type: hospital }], { pauseMs: 0 });
  assert.deepEqual({ ok: s.ok, failed: s.failed }, { ok: 0, failed: 1 });
  const r = await ctx.app.get('/api/v1/cities/berlin/pois?type=hospital');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.total_available'), 6);
  assert.deepEqual(await dueTargets(ctx.app.rt.store, [berlin], [hospital], 0), [], 'failed pair waits for its hold');
});

test('429 and 504 are retried after a back-off (Retry-After honoured); the query then succeeds', async () => {
  let calls = 0;
  fake.post('/api/interpreter', () => {
    calls++;
    if (calls === 1) return { status: 429, headers: { 'retry-after': '0' }, body: 'rate limited' };
    if (calls === 2) return { status: 504, body: 'Gateway Timeout' };
    return { file: 'overpass/pois_hospital_berlin.json' };
  });
  const s = await refreshPois(ctx.app.rt, [{ city: berlin, type: hospital }], { pauseMs: 0, backoffMs: 1 });
  assert.equal(s.ok, 1);
  assert.equal(calls, 3);
});

test('a back-off that would run past the job deadline fails the pair instead of waiting', async () => {
  fake.post('/api/interpreter', { status: 429, headers: { 'retry-after': '3600' }, body: 'rate limited' });
  const s = await refreshPois(ctx.app.rt, [{ city: berlin, type: hospital }], { pauseMs: 0, deadline: Date.now() + 60_000 });
  assert.equal(s.failed, 1);
  assert.equal(fake.count('/api/interpreter'), 1);
});

test('runs stop after too many failures in a row (upstream down), leaving the rest for later', async () => {
  fake.mode = 'error';
  const targets = POI_TYPES.map((type) => ({ city: berlin, type }));
  const s = await refreshPois(ctx.app.rt, targets, { pauseMs: 0, maxConsecutiveFailures: 3, backoffMs: 1 });
  assert.equal(s.failed, 3);
  assert.equal(s.remaining, POI_TYPES.length - 3);
  assert.match(s.aborted ?? '', /3 failures in a row/);
});

test('more objects than the cap: the stored sample is capped, total_available is the real total, meta says so', async () => {
  const koeln = CITY_BY_SLUG.get('koeln')!;
  const base = json('pois_hospital_berlin.json');
  const elements = [
    { type: 'area', id: 3600062578 },
    { type: 'count', id: 0, tags: { nodes: '1500', ways: '0', relations: '0', total: '1500' } },
    ...Array.from({ length: ITEM_CAP }, (_, i) => ({
      type: 'node',
      id: 1000 + i,
      lat: 50.9 + i / 1e4,
      lon: 6.9,
      tags: { amenity: 'pharmacy', name: `Apotheke ${String(i).padStart(3, '0')}` },
    })),
  ];
  fake.post('/api/interpreter', { json: { ...base, elements } });
  await refreshPois(ctx.app.rt, [{ city: koeln, type: POI_TYPE_BY_ID.get('pharmacy')! }], { pauseMs: 0 });
  const r = await ctx.app.get('/api/v1/cities/koeln/pois?type=pharmacy');
  assert.equal(at(r.json, 'data.total_available'), 1500);
  assert.equal(at(r.json, 'data.sample_size'), ITEM_CAP);
  assert.equal(at(r.json, 'data.items.length'), ITEM_CAP);
  assert.equal(at(r.json, 'data.truncated'), true);
  assert.match(str(r.json, 'meta.note'), /capped at 500/);
});

test('an aborted job (shutdown) stops between queries', async () => {
  const ctrl = new AbortController();
  const targets = POI_TYPES.map((type) => ({ city: CITY_BY_SLUG.get('hamburg')!, type }));
  const s = await refreshPois(ctx.app.rt, targets, {
    pauseMs: 0,
    signal: ctrl.signal,
    onProgress: (p) => {
      if (p.index === 2) ctrl.abort();
    },
  });
  assert.equal(s.ok, 2);
  assert.equal(s.aborted, 'shutdown');
  assert.equal(fake.count('/api/interpreter'), 2);
});

test('toggle off: 200 disabled, nothing read or fetched', async () => {
  const off = await startApp({ ...fakeEnv(fake.url), OVERPASS_ENABLED: 'false' });
  try {
    const r = await off.get('/api/v1/cities/berlin/pois?type=hospital');
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'disabled');
    assert.equal(at(r.json, 'data'), null);
    assert.equal(createPoisJob().enabled(off.rt), false, 'the job is skipped too');
  } finally {
    await off.close();
  }
});
