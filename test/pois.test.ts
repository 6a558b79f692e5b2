import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerOverpass } from './fixtures/overpass/routes.ts';
import { CITIES, CITY_BY_SLUG, type City } from '../src/cities/register.ts';
import { assertComplete, parsePoisAnswer, parsePoiElement, type OverpassAnswer } from '../src/sources/overpass/parse.ts';
import { cityQuery } from '../src/sources/overpass/query.ts';
import { ITEM_CAP } from '../src/sources/overpass/stored.ts';
import { POI_TYPES } from '../src/sources/overpass/poi-types.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { createPoisJob } from '../src/jobs/pois-precompute.ts';
import { refreshPois } from '../src/jobs/pois/refresh.ts';
import { duePoiCities } from '../src/jobs/pois/due.ts';
import { nth } from './helpers/must.ts';
import { at, list, str } from './helpers/json.ts';

const json = (name: string): OverpassAnswer => JSON.parse(fixture(`overpass/${name}`).toString('utf8'));
const berlin = CITY_BY_SLUG.get('berlin') as City;
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
  assert.throws(() => parsePoisAnswer(json('remark-runtime-error_timeout.json'), POI_TYPES), UpstreamError);
  assert.doesNotThrow(() => assertComplete(json('remark-runtime-remark.json')));
});

test('parser: one answer for all types is sorted into types by their tags, by name (unnamed last), with a zoned OSM base time', () => {
  const a = parsePoisAnswer(json('pois_berlin.json'), POI_TYPES);
  assert.deepEqual(
    [...a.byType.keys()],
    POI_TYPES.map((t) => t.id),
    'every type present',
  );
  const hospitals = a.byType.get('hospital')!;
  assert.deepEqual(
    hospitals.map((i) => i.name),
    [
      'Charité Campus Benjamin Franklin',
      'Charité Campus Mitte',
      'Charité Campus Virchow-Klinikum',
      'DRK Kliniken Berlin Westend',
      'Vivantes Klinikum Am Urban',
      null,
    ],
  );
  const virchow = nth(hospitals, 2);
  assert.equal(virchow.osm_type, 'relation');
  assert.equal(virchow.lat, 52.5410447);
  assert.equal(virchow.post_code, '13353');
  assert.equal(virchow.tags, undefined, 'hospital keeps no tags');
  const bikes = a.byType.get('bicycle_parking')!;
  assert.equal(bikes.length, 4);
  assert.ok(
    bikes.every((b) => b.tags !== undefined),
    'bicycle parking keeps its declared tags',
  );
  assert.equal(a.byType.get('cinema')!.length, 0);
  assert.equal(a.osm_base, '2026-08-01T09:24:36+02:00');
});

test('parser: an object matched by several types is listed in each; a type filter with a regex is applied on the client too', () => {
  const base = json('pois_none.json');
  const el = (id: number, tags: Record<string, string>) => ({ type: 'node', id, lat: 52.5, lon: 13.4, tags });
  const body = {
    ...base,
    elements: [
      ...base.elements!,
      el(1, { amenity: 'school', leisure: 'playground', name: 'Schulhof' }),
      el(2, { leisure: 'sports_centre', sport: 'soccer;swimming', name: 'Stadtbad' }),
      el(3, { leisure: 'sports_centre', sport: 'swimmingly', name: 'Kein Bad' }),
      el(4, { leisure: 'swimming_pool', access: 'private' }),
    ],
  };
  const a = parsePoisAnswer(body, POI_TYPES);
  assert.deepEqual(
    a.byType.get('school')!.map((i) => i.osm_id),
    [1],
  );
  assert.deepEqual(
    a.byType.get('playground')!.map((i) => i.osm_id),
    [1],
  );
  assert.deepEqual(
    a.byType.get('swimming_pool')!.map((i) => i.name),
    ['Stadtbad'],
  );
});

test('parser: an answer without the echoed area (boundary unknown to Overpass) fails instead of counting zero', () => {
  assert.throws(() => parsePoisAnswer(json('pois_unknown-area.json'), POI_TYPES), /area/);
  const none = parsePoisAnswer(json('pois_none.json'), POI_TYPES);
  assert.ok([...none.byType.values()].every((l) => l.length === 0));
});

test('query: one query for all POI types: area from the OSM relation (3600000000 + id), AGS fallback, every filter group in one union', () => {
  const q = cityQuery(berlin, POI_TYPES);
  assert.match(q, /^\[out:json\]\[timeout:\d+\];/);
  assert.match(q, /area\(id:3600062422\)->\.city;/);
  for (const t of POI_TYPES) for (const g of t.groups) assert.ok(q.includes(`["${nth(g, 0).key}"`), `${t.id} in the union`);
  assert.match(q, /nwr\["amenity"="hospital"\]\(area\.city\);/);
  assert.match(
    q,
    /nwr\["leisure"="sports_centre"\]\["sport"~"\(\^\|;\)swimming\(;\|\$\)"\]\(area\.city\);\nnwr\["leisure"="water_park"\]\(area\.city\);\nnwr\["leisure"="swimming_pool"\]\["access"~"\^\(yes\|public\)\$"\]\(area\.city\);/,
  );
  assert.match(q, /\n\);\nout tags center;$/, 'every object with tags and centre, no per-type count or cap');
  assert.equal(
    q.match(/\(area\.city\);/g)?.length,
    POI_TYPES.reduce((n, t) => n + t.groups.length, 0),
  );
  const noRel = cityQuery({ ags: '05315000', osm_relation: null }, POI_TYPES);
  assert.match(noRel, /area\["de:amtlicher_gemeindeschluessel"="05315000"\]\["boundary"="administrative"\]->\.city;/);
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
  assert.equal(fake.count('/api/interpreter'), 1, 'one query for all POI types of the city');
  const req = nth(fake.requests, 0);
  assert.equal(req.method, 'POST');
  assert.match(new URLSearchParams(req.body).get('data') ?? '', /area\(id:3600062422\)/);
  assert.match(String(req.headers['user-agent']), /Stadtdaten/);
  assert.match(logs.join('\n'), /1 cities stored, 0 failed, 0 left for the next run, 1 Overpass requests/);
  for (const t of POI_TYPES) assert.ok(new URLSearchParams(req.body).get('data')?.includes(`"${nth(nth(t.groups, 0), 0).value}"`), `${t.id} asked for`);

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

  const bikes = await ctx.app.get('/api/v1/cities/berlin/pois?type=bicycle_parking');
  assert.equal(at(bikes.json, 'data.total_available'), 4, 'the same answer filled the other types');

  assert.deepEqual(await duePoiCities(ctx.app.rt.store, [berlin], POI_TYPES, 7 * 86400_000), [], 'nothing due right after a run');
  fake.reset();
  await createPoisJob({ cities: [berlin], pauseMs: 0 }).run(ctx.app.rt, quiet, noAbort);
  assert.equal(fake.count(), 0, 'a second run within the week queries nothing');
});

test('a timeout remark fails the city: every type keeps its previous value and the city is held back from the next scheduled run', async () => {
  await refreshPois(ctx.app.rt, [berlin], { pauseMs: 0 });
  fake.post('/api/interpreter', { file: 'overpass/remark-runtime-error_timeout.json' });
  const s = await refreshPois(ctx.app.rt, [berlin], { pauseMs: 0 });
  assert.deepEqual({ ok: s.ok, failed: s.failed, requests: s.requests }, { ok: 0, failed: 1, requests: 1 });
  for (const [type, total] of [
    ['hospital', 6],
    ['bicycle_parking', 4],
  ] as const) {
    const r = await ctx.app.get(`/api/v1/cities/berlin/pois?type=${type}`);
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(at(r.json, 'data.total_available'), total, `${type} kept`);
  }
  assert.deepEqual(await duePoiCities(ctx.app.rt.store, [berlin], POI_TYPES, 0), [], 'failed city waits for its hold');
  const hamburg = CITY_BY_SLUG.get('hamburg')!;
  assert.deepEqual(await duePoiCities(ctx.app.rt.store, [hamburg, berlin], POI_TYPES, 0), [hamburg]);
});

test('429 and 504 are retried after a back-off (Retry-After honoured); the city query then succeeds', async () => {
  let calls = 0;
  const waits: number[] = [];
  let last = Date.now();
  fake.post('/api/interpreter', () => {
    calls++;
    waits.push(Date.now() - last);
    last = Date.now();
    if (calls === 1) return { status: 429, headers: { 'retry-after': '1' }, body: 'rate limited' };
    if (calls === 2) return { status: 504, body: 'Gateway Timeout' };
    return { file: 'overpass/pois_berlin.json' };
  });
  const s = await refreshPois(ctx.app.rt, [berlin], { pauseMs: 0, backoffMs: 1 });
  assert.deepEqual({ ok: s.ok, requests: s.requests }, { ok: 1, requests: 3 });
  assert.equal(calls, 3);
  assert.ok(nth(waits, 1) >= 950, `waited for Retry-After: 1 s (${nth(waits, 1)} ms)`);
  const r = await ctx.app.get('/api/v1/cities/berlin/pois?type=hospital');
  assert.equal(at(r.json, 'data.total_available'), 6);
});

test('a back-off that would run past the job deadline fails the city instead of waiting', async () => {
  fake.post('/api/interpreter', { status: 429, headers: { 'retry-after': '3600' }, body: 'rate limited' });
  const s = await refreshPois(ctx.app.rt, [berlin], { pauseMs: 0, deadline: Date.now() + 60_000 });
  assert.equal(s.failed, 1);
  assert.equal(fake.count('/api/interpreter'), 1);
});

test('bounded concurrency: never more than `concurrency` city queries in flight, one request per city', async () => {
  let inFlight = 0;
  let peak = 0;
  fake.post('/api/interpreter', async () => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setTimeout(r, 20));
    inFlight--;
    return { file: 'overpass/pois_none.json' };
  });
  const cities = CITIES.slice(0, 8);
  const s = await refreshPois(ctx.app.rt, cities, { pauseMs: 0, concurrency: 2 });
  assert.deepEqual({ ok: s.ok, requests: s.requests }, { ok: 8, requests: 8 });
  assert.equal(peak, 2);
});

test('runs stop after too many failed cities in a row (upstream down), leaving the rest for later', async () => {
  fake.mode = 'error';
  const s = await refreshPois(ctx.app.rt, CITIES.slice(0, 10), { pauseMs: 0, concurrency: 1, maxConsecutiveFailures: 3, backoffMs: 1 });
  assert.equal(s.failed, 3);
  assert.equal(s.remaining, 7);
  assert.match(s.aborted ?? '', /3 failures in a row/);
});

test('more objects than the cap: the stored sample is capped, total_available is the real total, meta says so', async () => {
  const koeln = CITY_BY_SLUG.get('koeln')!;
  const base = json('pois_berlin.json');
  const elements = [
    { type: 'area', id: 3600062578 },
    ...Array.from({ length: 1500 }, (_, i) => ({
      type: 'node',
      id: 1000 + i,
      lat: 50.9 + i / 1e4,
      lon: 6.9,
      tags: { amenity: 'pharmacy', name: `Apotheke ${String(i).padStart(4, '0')}` },
    })),
  ];
  fake.post('/api/interpreter', { json: { ...base, elements } });
  await refreshPois(ctx.app.rt, [koeln], { pauseMs: 0 });
  const r = await ctx.app.get('/api/v1/cities/koeln/pois?type=pharmacy');
  assert.equal(at(r.json, 'data.total_available'), 1500);
  assert.equal(at(r.json, 'data.sample_size'), ITEM_CAP);
  assert.equal(at(r.json, 'data.items.length'), ITEM_CAP);
  assert.equal(at(r.json, 'data.truncated'), true);
  assert.match(str(r.json, 'meta.note'), /capped at 500/);
});

test('an aborted job (shutdown) stops between cities', async () => {
  const ctrl = new AbortController();
  let done = 0;
  const s = await refreshPois(ctx.app.rt, CITIES.slice(0, 10), {
    pauseMs: 0,
    concurrency: 1,
    signal: ctrl.signal,
    onProgress: () => {
      if (++done === 2) ctrl.abort();
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
