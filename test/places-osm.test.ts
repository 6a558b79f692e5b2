import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at, num, obj, str } from './helpers/json.ts';
import { must, nth } from './helpers/must.ts';
import { register as registerOverpass } from './fixtures/overpass/routes.ts';
import { CITIES, CITY_BY_SLUG, type City } from '../src/cities/register.ts';
import type { OverpassAnswer } from '../src/sources/overpass/parse.ts';
import { PLACE_TYPES, PLACE_TYPE_BY_ID } from '../src/sources/overpass/place-types.ts';
import { isOfType } from '../src/sources/overpass/tag-filter.ts';
import { cityQuery } from '../src/sources/overpass/query.ts';
import { parsePlaceElement, parsePlacesAnswer } from '../src/sources/overpass/places-parse.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { createPlacesJob, PLACES_PRECOMPUTE_JOB } from '../src/jobs/places-precompute.ts';
import { jobsOf, mainForm } from '../src/core/forms.ts';
import { duePlaceCities } from '../src/jobs/pois/due.ts';
import { refreshPlaces } from '../src/jobs/pois/places-refresh.ts';
import { OSM_PLACE_TYPES } from '../src/catalog/places.ts';
import { PlaceRecord } from '../src/core/records/places.ts';

const json = (name: string): OverpassAnswer => JSON.parse(fixture(`overpass/${name}`).toString('utf8'));
const muenchen = CITY_BY_SLUG.get('muenchen') as City;
const noAbort = new AbortController().signal;
const quiet = () => {};

const ctx = useFakeApp(registerOverpass);
const { fake } = ctx;

test('catalog: the ten OSM place types, stored, naming their job, one tag filter each', () => {
  assert.deepEqual(
    OSM_PLACE_TYPES.map((t) => t.type),
    PLACE_TYPES.map((t) => t.id),
  );
  for (const t of OSM_PLACE_TYPES) {
    assert.equal(t.cache, 'stored');
    assert.deepEqual(jobsOf(t), [PLACES_PRECOMPUTE_JOB]);
    assert.equal(t.list, true);
    assert.equal(mainForm(t).source.tier, 'B');
  }
});

test('query: one query for all place types: area, every filter group in one union, tags and centres', () => {
  const q = cityQuery(muenchen, PLACE_TYPES);
  assert.match(q, /^\[out:json\]\[timeout:\d+\];\narea\(id:3600062428\)->\.city;\n\.city out ids;\n\(/);
  assert.match(q, /nwr\["amenity"="drinking_water"\]\(area\.city\);/);
  assert.match(q, /nwr\["internet_access"="wlan"\]\["internet_access:fee"="no"\]\(area\.city\);/);
  assert.match(q, /nwr\["office"="government"\]\(area\.city\);\nnwr\["amenity"="townhall"\]\(area\.city\);/);
  assert.match(q, /\);\nout tags center;$/);
  assert.equal((q.match(/\(area\.city\);/g) ?? []).length, 11, 'ten types, government offices with two groups');
});

test('parser: objects sorted into their types by tags; address, fee, wheelchair, capacity, materials; zoned OSM time', () => {
  const a = parsePlacesAnswer(json('places_muenchen.json'), PLACE_TYPES);
  assert.equal(a.osm_base, '2026-08-01T09:24:36+02:00');
  const names = (type: string) => a.byType.get(type)!.map((p) => p.name);
  assert.deepEqual(names('drinking-water'), ['Trinkbrunnen Marienplatz', null]);
  assert.deepEqual(names('government-offices'), ['Kreisverwaltungsreferat', 'Neues Rathaus']);
  assert.deepEqual(names('public-wifi'), ['Stadtbibliothek Motorama']);
  for (const t of PLACE_TYPES) assert.ok(a.byType.get(t.id)!.length > 0, `${t.id} has objects in the fixture`);
  const post = nth(must(a.byType.get('post-offices')), 0);
  assert.deepEqual(
    { street: post.street, house_number: post.house_number, post_code: post.post_code, place: post.place, wheelchair: post.wheelchair },
    { street: 'Bahnhofplatz', house_number: '1', post_code: '80335', place: 'München', wheelchair: 'yes' },
  );
  const toilets = must(a.byType.get('public-toilets'));
  const paid = nth(toilets, 0);
  const free = nth(toilets, 1);
  assert.equal(paid.fee, true);
  assert.equal(free.fee, false);
  assert.equal(free.name, null);
  const locker = nth(must(a.byType.get('parcel-lockers')), 0);
  assert.deepEqual(
    { brand: locker.brand, capacity: locker.capacity, opening_hours: locker.opening_hours },
    { brand: 'DHL Packstation', capacity: 82, opening_hours: '24/7' },
  );
  const centre = nth(must(a.byType.get('recycling-centres')), 0);
  assert.deepEqual(centre.recycling_materials, ['electrical_appliances', 'glass', 'paper', 'wood'], 'recycling:clothes=no is left out');
  assert.deepEqual({ lat: centre.lat, lon: centre.lon, osm_type: centre.osm_type }, { lat: 48.1838, lon: 11.6108, osm_type: 'way' });
  assert.equal(nth(must(a.byType.get('post-boxes')), 0).collection_times, 'Mo-Fr 17:00; Sa 12:00');
  for (const list of a.byType.values()) for (const p of list) assert.ok(PlaceRecord().safeParse(p).success, JSON.stringify(p));
});

test('parser: the real out-center-tags recording parses (node coordinates, way centre); its fast food matches no place type', () => {
  const els = json('around600_amenity-fast_food_muenchen_out-center-tags_TRUNCATED.json').elements!;
  const bk = must(parsePlaceElement(nth(els, 0)));
  assert.deepEqual(
    [bk.name, bk.lat, bk.lon, bk.post_code, bk.wheelchair, bk.brand],
    ['Burger King', 48.1377004, 11.5645217, '80331', 'limited', 'Burger King'],
  );
  assert.equal(must(parsePlaceElement(nth(els, 2))).lat, 48.1383731);
  for (const el of els) for (const t of PLACE_TYPES) assert.equal(isOfType(el.tags ?? {}, t), false);
  assert.equal(isOfType({ internet_access: 'wlan' }, PLACE_TYPE_BY_ID.get('public-wifi')!), false, 'paid or unknown Wi-Fi is not public Wi-Fi');
});

test('parser: a runtime-error remark (HTTP 200) and an answer without the echoed area are failures, not empty lists', () => {
  assert.throws(
    () => parsePlacesAnswer(json('remark-runtime-error_timeout.json'), PLACE_TYPES),
    (e: unknown) => e instanceof UpstreamError && /timed out/.test(e.message),
  );
  assert.throws(() => parsePlacesAnswer(json('pois_unknown-area.json'), PLACE_TYPES), /area/);
  assert.throws(() => parsePlacesAnswer({ remark: 'x' } as OverpassAnswer, PLACE_TYPES), /without elements/);
  const none = parsePlacesAnswer(json('places_none.json'), PLACE_TYPES);
  assert.equal([...none.byType.values()].flat().length, 0);
});

test('GET before any precompute: 200 no_data, ODbL attribution, Overpass never called on a request', async () => {
  const r = await ctx.app.get('/api/v1/cities/muenchen/drinking-water');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /precompute has not run/);
  assert.equal(at(r.json, 'attribution.text'), '© OpenStreetMap contributors, ODbL');
  assert.equal(at(r.json, 'attribution.tier'), 'B');
  assert.equal(fake.count(), 0);
});

test('job: one Overpass query per city fills all ten types; ok with full lists and pagination; nothing due afterwards', async () => {
  const logs: string[] = [];
  const berlin = CITY_BY_SLUG.get('berlin')!;
  await createPlacesJob({ cities: [muenchen, berlin], pauseMs: 0 }).run(ctx.app.rt, (m) => logs.push(m), noAbort);
  assert.equal(fake.count('/api/interpreter'), 2, 'one query per city, not per type');
  assert.equal(nth(fake.requests, 0).method, 'POST');
  assert.match(logs.join('\n'), /2 cities stored, 0 failed, 0 left for the next run, 2 Overpass requests/);

  const r = await ctx.app.get('/api/v1/cities/muenchen/government-offices');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.total'), 2);
  assert.equal(at(r.json, 'meta.as_of'), '2026-08-01T09:24:36+02:00');
  assert.match(str(r.json, 'meta.computed_at'), /[+-]\d{2}:\d{2}$/);
  const rathaus = obj(r.json, 'data.1');
  assert.equal(rathaus.name, 'Neues Rathaus');
  assert.equal(rathaus.post_code, '80331');
  assert.equal(rathaus.plz, '80331', 'deprecated alias added by the normaliser');
  assert.equal(rathaus.osm_type, 'relation');

  const page = await ctx.app.get('/api/v1/cities/muenchen/drinking-water?limit=1&offset=1');
  assert.equal(at(page.json, 'data.length'), 1);
  assert.equal(num(page.json, 'data.0.osm_id'), 1300000102);
  assert.equal(at(page.json, 'meta.pagination.total'), 2);

  const empty = await ctx.app.get('/api/v1/cities/berlin/markets');
  assert.equal(at(empty.json, 'meta.source_status'), 'no_data');
  assert.match(str(empty.json, 'meta.reason'), /no markets mapped/);

  assert.deepEqual(await duePlaceCities(ctx.app.rt.store, [muenchen, berlin], 7 * 86400_000), []);
  fake.reset();
  await createPlacesJob({ cities: [muenchen, berlin], pauseMs: 0 }).run(ctx.app.rt, quiet, noAbort);
  assert.equal(fake.count(), 0, 'a second run within the week queries nothing');
});

test('a timeout remark fails the city: previous lists kept, city held back from the next run', async () => {
  const augsburg = CITY_BY_SLUG.get('augsburg')!;
  fake.post('/api/interpreter', { file: 'overpass/places_muenchen.json' });
  await refreshPlaces(ctx.app.rt, [augsburg], { pauseMs: 0 });
  fake.post('/api/interpreter', { file: 'overpass/remark-runtime-error_timeout.json' });
  const s = await refreshPlaces(ctx.app.rt, [augsburg], { pauseMs: 0 });
  assert.deepEqual({ ok: s.ok, failed: s.failed }, { ok: 0, failed: 1 });
  const r = await ctx.app.get('/api/v1/cities/augsburg/playgrounds');
  assert.equal(at(r.json, 'meta.source_status'), 'ok', 'last good lists still served');
  assert.deepEqual(await duePlaceCities(ctx.app.rt.store, [augsburg], 0), [], 'failed city waits for its hold');
});

test('429 and 504 are retried after a back-off (Retry-After honoured)', async () => {
  let calls = 0;
  fake.post('/api/interpreter', () => {
    calls++;
    if (calls === 1) return { status: 429, headers: { 'retry-after': '0' }, body: 'rate limited' };
    if (calls === 2) return { status: 504, body: 'Gateway Timeout' };
    return { file: 'overpass/places_muenchen.json' };
  });
  const s = await refreshPlaces(ctx.app.rt, [CITY_BY_SLUG.get('nuernberg')!], { pauseMs: 0, backoffMs: 1 });
  assert.deepEqual({ ok: s.ok, requests: s.requests }, { ok: 1, requests: 3 });
});

test('upstream down: the run stops after too many failed cities in a row, leaving the rest', async () => {
  fake.mode = 'error';
  const s = await refreshPlaces(ctx.app.rt, CITIES.slice(20, 40), { pauseMs: 0, concurrency: 1, maxConsecutiveFailures: 3, backoffMs: 1 });
  assert.equal(s.failed, 3);
  assert.equal(s.remaining, 17);
  assert.match(s.aborted ?? '', /3 failures in a row/);
});

test('a stored list that cannot be read answers 503, never 500', async () => {
  await ctx.app.rt.store.set('places:v1:bonn:markets', '{"broken": tru');
  const r = await ctx.app.get('/api/v1/cities/bonn/markets');
  assert.equal(r.status, 503);
  assert.match(r.headers.get('content-type') ?? '', /problem\+json/);
});

test('toggle off: 200 disabled and the job is skipped', async () => {
  const off = await startApp({ ...fakeEnv(fake.url), OVERPASS_ENABLED: 'false' });
  try {
    const r = await off.get('/api/v1/cities/muenchen/post-boxes');
    assert.equal(at(r.json, 'meta.source_status'), 'disabled');
    assert.equal(createPlacesJob().enabled(off.rt), false);
  } finally {
    await off.close();
  }
});
