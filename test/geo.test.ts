import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at, num, obj, str } from './helpers/json.ts';
import { must, nth } from './helpers/must.ts';
import { register as registerBkg } from './fixtures/bkg/routes.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { readMunicipalities } from '../src/sources/bkg/boundaries.ts';
import { measure, signedArea, simplify, toLonLat, toPolygons } from '../src/sources/bkg/geometry.ts';
import { readDbf, readPolygons } from '../src/sources/bkg/shapefile.ts';
import { utm32ToLonLat } from '../src/core/utm.ts';
import { jobsOf } from '../src/core/forms.ts';
import { GEO_PRECOMPUTE_JOB, precomputeGeo } from '../src/jobs/geo-precompute.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { GeoRecord } from '../src/core/records/city-base.ts';
import { CITY_TYPES } from '../src/catalog/city.ts';
import { published } from '../src/core/schema.ts';

const ZIP = 'bkg/vg250_12-31.utm32s.shape.ebenen.zip';
const ctx = useFakeApp(registerBkg);
const { fake } = ctx;
const muenchen = CITY_BY_SLUG.get('muenchen')!;
const quiet = () => {};

/** München's boundary as recorded from Overpass (the source of the fixture's geometry), [lat, lon] per point. */
function recordedOuterPoints(): [number, number][] {
  const sample = JSON.parse(fixture('overpass/boundary_by-ags_09162_munich_out-geom.json').toString('utf8')) as {
    elements: { members: { geometry?: { lat: number; lon: number }[] }[] }[];
  };
  return nth(sample.elements, 0).members.flatMap((m) => (m.geometry ?? []).map((g) => [g.lat, g.lon] as [number, number]));
}

test('UTM 32N inverse: the fixture points (projected forward by an independent implementation) come back to the recorded coordinates', async () => {
  const found = await readMunicipalities(fixture(ZIP), new Set(['09162000']));
  const ring = nth(must(found.get('09162000')).rings, 0);
  const back = ring.map(([x, y]) => utm32ToLonLat(x, y));
  const recorded = recordedOuterPoints();
  let worst = 0;
  for (const [lon, lat] of back) {
    let best = Infinity;
    for (const [la, lo] of recorded) best = Math.min(best, Math.hypot(la - lat, lo - lon));
    worst = Math.max(worst, best);
  }
  assert.ok(worst < 1e-6, `largest deviation ${worst}° (about ${Math.round(worst * 111e6) / 1000} m)`);
});

test('shapefile and dBASE readers: polygon parts, UTF-8 names per .cpg, VG250 columns; garbage fails', async () => {
  const found = await readMunicipalities(fixture(ZIP), new Set(['09162000', '09184147', '99999999']));
  assert.deepEqual([...found.keys()].sort(), ['09162000', '09184147']);
  const m = found.get('09162000')!;
  assert.deepEqual([m.name, m.designation, m.effective_since], ['München', 'Kreisfreie Stadt', '2025-01-01']);
  assert.equal(m.rings.length, 3);
  const neighbour = found.get('09184147')!;
  assert.equal(neighbour.name, 'Unterföhring');
  const polys = toPolygons(neighbour.rings);
  assert.equal(polys.length, 1, 'the counter-clockwise ring is a hole of the square');
  assert.equal(nth(polys, 0).length, 2);
  assert.throws(
    () => readPolygons(Buffer.from('not a shapefile at all, not at all, not at all, not at all, not at all, not at all, not at all!')),
    UpstreamError,
  );
  assert.throws(() => readDbf(Buffer.alloc(10)), UpstreamError);
  await assert.rejects(readMunicipalities(Buffer.from('PK garbage'), new Set()), UpstreamError);
});

test('geometry: area with the hole subtracted and scale-corrected, centroid, bbox; simplification keeps the shape; GeoJSON winding', async () => {
  const found = await readMunicipalities(fixture(ZIP), new Set(['09162000', '09184147']));
  const square = measure(toPolygons(found.get('09184147')!.rings));
  // 3 km square minus a 600 m square hole = 8.64 km² on the projection plane; k ≈ 0.99967 there.
  assert.ok(Math.abs(square.area_km2 - 8.64 / 0.99967 ** 2) < 0.01, String(square.area_km2));
  assert.ok(Math.abs(square.centroid.lat - 48.1925) < 1e-4 && Math.abs(square.centroid.lon - 11.6456) < 1e-4);
  const polys = toPolygons(found.get('09162000')!.rings);
  const m = measure(polys);
  assert.ok(m.area_km2 > 300 && m.area_km2 < 320, `München's area ${m.area_km2} km² (official 310.7)`);
  assert.ok(m.bbox.min_lon < 11.37 && m.bbox.max_lon > 11.72 && m.bbox.min_lat < 48.07 && m.bbox.max_lat > 48.24);
  const simple = simplify(polys, 100);
  const before = polys.reduce((s, p) => s + nth(p, 0).length, 0);
  const after = simple.reduce((s, p) => s + nth(p, 0).length, 0);
  assert.ok(after < before / 2, `${after} of ${before} points kept`);
  const outer = nth(nth(toLonLat(simple), 0), 0);
  assert.ok(signedArea(outer as [number, number][]) > 0, 'outer ring counter-clockwise (RFC 7946)');
  assert.deepEqual(outer[0], outer[outer.length - 1], 'ring closed');
});

test('GET geo before the precompute: no_data; the job then stores it: ok, simplified by default, detail=full unsimplified', async () => {
  const none = await ctx.app.get('/api/v1/cities/muenchen/geo');
  assert.equal(none.status, 200);
  assert.equal(at(none.json, 'meta.source_status'), 'no_data');

  const logs: string[] = [];
  await GEO_PRECOMPUTE_JOB.run(ctx.app.rt, (m) => logs.push(m), new AbortController().signal);
  assert.match(logs.join('\n'), /1 boundaries stored, not in the archive: /);
  assert.deepEqual(jobsOf(CITY_TYPES.find((t) => t.type === 'geo')!), [GEO_PRECOMPUTE_JOB], 'the stored type names its job');
  assert.equal(fake.count(), 1, 'the archive is downloaded once for all cities');

  const r = await ctx.app.get('/api/v1/cities/muenchen/geo');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.match(str(r.json, 'attribution.text'), /GeoBasis-DE \/ BKG/);
  assert.equal(at(r.json, 'meta.edition'), '2025-03-03T09:00:00+01:00');
  const d = obj(r.json, 'data');
  assert.ok(published(GeoRecord()).safeParse(d).success);
  assert.deepEqual([d.ags, d.name, d.detail, d.simplify_tolerance_m, at(d, 'geometry.type')], ['09162000', 'München', 'simplified', 100, 'MultiPolygon']);
  const full = await ctx.app.get('/api/v1/cities/muenchen/geo?detail=full');
  assert.equal(at(full.json, 'data.detail'), 'full');
  assert.equal(at(full.json, 'data.simplify_tolerance_m'), null);
  assert.ok(num(full.json, 'data.points') > num(d, 'points') * 2);
  assert.equal(at(full.json, 'data.area_km2'), d.area_km2);
  const bad = await ctx.app.get('/api/v1/cities/muenchen/geo?detail=huge');
  assert.equal(bad.status, 422);

  const missing = await ctx.app.get('/api/v1/cities/hamburg/geo');
  assert.equal(at(missing.json, 'meta.source_status'), 'no_data', 'a city the archive lacks stays no_data');
  fake.reset();
  await GEO_PRECOMPUTE_JOB.run(ctx.app.rt, quiet, new AbortController().signal);
  assert.equal(fake.count(), 0, 'read again only after a month');
});

test('a broken archive fails the precompute and keeps what is stored; a broken stored value is a 503', async () => {
  fake.get('/produkte/vg/vg250_ebenen_1231/aktuell/vg250_12-31.utm32s.shape.ebenen.zip', { body: '<html>Wartung</html>' });
  await assert.rejects(precomputeGeo(ctx.app.rt, [muenchen]), UpstreamError);
  await ctx.app.rt.store.set('geo:v1:bonn', '{"ags": ');
  const r = await ctx.app.get('/api/v1/cities/bonn/geo');
  assert.equal(r.status, 503);
});

test('toggle off: disabled, and the job is skipped', async () => {
  const off = await startApp({ ...fakeEnv(fake.url), BKG_VG250_ENABLED: 'false' });
  try {
    const r = await off.get('/api/v1/cities/muenchen/geo');
    assert.equal(at(r.json, 'meta.source_status'), 'disabled');
    assert.equal(GEO_PRECOMPUTE_JOB.enabled(off.rt), false);
  } finally {
    await off.close();
  }
});
