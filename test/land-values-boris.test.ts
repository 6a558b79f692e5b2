import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { GENESIS_FIXTURE_CREDENTIALS, register as registerGenesis } from './fixtures/genesis/routes.ts';
import { register as registerBoris } from './fixtures/boris/routes.ts';
import { BORIS_MAX_ZONES, BORIS_PAGE } from '../src/sources/boris/standard-land-values.ts';
import { at, str, obj } from './helpers/json.ts';

const ctx = useFakeApp(
  (f) => {
    registerGenesis(f);
    registerBoris(f);
  },
  { env: GENESIS_FIXTURE_CREDENTIALS, keyless: true },
);
const { fake } = ctx;
const wfsRequests = (path: string) => fake.requests.filter((r) => r.url.startsWith(path)).map((r) => new URL(r.url, 'http://x').searchParams);

test('Berlin: both parts, each with its own source; BORIS median and range of residential zones with the year', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/land-values');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.building_land.price_eur_m2'), 1128.38);
  assert.match(str(r.json, 'data.building_land_source.license'), /dl-de\/by-2-0/);
  const s = obj(r.json, 'data.standard_land_values');
  // W/WA/M2 zones 640, 850, 1200, 1500, 2400, 3100; the G and SO zones do not count.
  assert.equal(s.median_eur_m2, 1350);
  assert.equal(s.min_eur_m2, 640);
  assert.equal(s.max_eur_m2, 3100);
  assert.equal(s.zones, 6);
  assert.equal(s.zones_read, 8);
  assert.equal(s.year, 2026);
  assert.equal(s.reference_date, '2026-01-01');
  assert.equal(s.truncated, false);
  assert.equal(at(r.json, 'data.standard_land_values.provenance.license'), 'dl-de/zero-2-0');
  assert.match(str(s, 'area'), /city-state/);
  const q = wfsRequests('/services/wfs/brw2026')[0];
  assert.equal(q?.get('outputFormat'), 'application/json');
  assert.equal(q?.get('startIndex'), '0');
  assert.equal(q?.get('bbox'), null, 'the whole city-state layer');
});

test('Hessen (GML): Frankfurt by bounding box, building land B only, newest reference date only', async () => {
  const r = await ctx.app.get('/api/v1/cities/frankfurt-am-main/land-values');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const s = obj(r.json, 'data.standard_land_values');
  assert.deepEqual([s.median_eur_m2, s.min_eur_m2, s.max_eur_m2, s.zones, s.zones_read, s.year, s.state], [1450, 980, 2100, 3, 6, 2024, 'HE']);
  assert.match(str(s, 'area'), /neighbouring municipalities/);
  const bbox = wfsRequests('/wfs2/boris/cgi-bin/brw/2024/wfs')[0]?.get('bbox') ?? '';
  const [lat1, lon1, lat2, lon2, crs] = bbox.split(',');
  assert.equal(crs, 'urn:ogc:def:crs:EPSG::4326');
  assert.ok(Number(lat1) < 50.11 && Number(lat2) > 50.11 && Number(lon1) < 8.68 && Number(lon2) > 8.68, 'latitude first');
  assert.equal(at(r.json, 'data.building_land.price_eur_m2'), 1428.41);
});

test('Thüringen (GML): Erfurt by municipality-key filter, newest reference date only', async () => {
  const r = await ctx.app.get('/api/v1/cities/erfurt/land-values');
  const s = obj(r.json, 'data.standard_land_values');
  assert.deepEqual([s.median_eur_m2, s.min_eur_m2, s.max_eur_m2, s.zones, s.year, s.state], [320, 185, 410.5, 3, 2026, 'TH']);
  assert.match(str(s, 'area'), /16051000/);
  const filter = wfsRequests('/geoproxy/services/boris/vBORIS_simple_wfs')[0]?.get('filter') ?? '';
  assert.match(filter, /<fes:ValueReference>GEMEINDE<\/fes:ValueReference><fes:Literal>16051000<\/fes:Literal>/);
  assert.equal(wfsRequests('/geoproxy/services/boris/vBORIS_simple_wfs')[0]?.get('bbox'), null);
});

test("another city of a recorded state gets its own area asked, and no zone of Erfurt's or Frankfurt's", async () => {
  for (const slug of ['jena', 'wiesbaden']) {
    const r = await ctx.app.get(`/api/v1/cities/${slug}/land-values`);
    assert.equal(at(r.json, 'meta.source_status'), 'no_data', slug);
    assert.match(str(r.json, 'meta.reason'), /lists no residential building-land zone for the city \(0 zones read\)/, slug);
  }
});

test('Bavaria: the building-land table only, and the reason; no WFS asked', async () => {
  const r = await ctx.app.get('/api/v1/cities/muenchen/land-values');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'data.standard_land_values'), null);
  assert.match(str(r.json, 'data.standard_land_values_note'), /Bayern.*no open machine-readable BORIS service/);
  assert.equal(fake.requests.filter((x) => x.url.includes('wfs')).length, 0);
});

test('without GENESIS credentials the BORIS part answers through the keyless fallback', async () => {
  const r = await ctx.keyless.get('/api/v1/cities/berlin/land-values');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.answered_by'), 'boris-wfs');
  assert.equal(at(r.json, 'data.standard_land_values.median_eur_m2'), 1350);
  assert.equal(at(r.json, 'data.building_land'), null);
  assert.match(str(r.json, 'data.building_land_note'), /GENESIS_USERNAME/);
  // A state without an open service has nothing then: no_data with both reasons.
  const m = await ctx.keyless.get('/api/v1/cities/muenchen/land-values');
  assert.equal(at(m.json, 'meta.source_status'), 'no_data');
  assert.match(str(m.json, 'meta.reason'), /GENESIS_USERNAME.*no open machine-readable BORIS/s);
});

test('an ExceptionReport or malformed JSON from the WFS: never a 500; the other part answers alone, or 503', async () => {
  fake.get('/wfs2/boris/cgi-bin/brw/2024/wfs', { file: 'boris/exception_report.xml', headers: { 'content-type': 'text/xml' } });
  fake.get('/services/wfs/brw2026', { body: '{"type":"FeatureCollection","features":[{"prop', headers: { 'content-type': 'application/json' } });
  // An entity declaration is refused before parsing, whatever it would expand to.
  fake.get('/geoproxy/services/boris/vBORIS_simple_wfs', {
    body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs/2.0">&a;</wfs:FeatureCollection>',
    headers: { 'content-type': 'text/xml' },
  });
  // Fresh apps: the shared ones hold the good answers of the tests above.
  const keyed = await startApp({ ...fakeEnv(fake.url), ...GENESIS_FIXTURE_CREDENTIALS });
  try {
    const fra = await keyed.get('/api/v1/cities/frankfurt-am-main/land-values');
    assert.equal(fra.status, 200);
    assert.equal(at(fra.json, 'data.standard_land_values'), null);
    assert.match(str(fra.json, 'data.standard_land_values_note'), /could not be read/);
    assert.equal(at(fra.json, 'data.building_land.price_eur_m2'), 1428.41);
  } finally {
    await keyed.close();
  }
  const app = await startApp(fakeEnv(fake.url));
  try {
    for (const slug of ['frankfurt-am-main', 'berlin', 'erfurt']) {
      const r = await app.get(`/api/v1/cities/${slug}/land-values`);
      assert.equal(r.status, 503, slug);
      assert.equal(at(r.json, 'code'), 'upstream_unavailable');
      assert.doesNotMatch(r.text, /Invalid bounding box|stack/);
    }
  } finally {
    await app.close();
  }
});

test('paging: count/startIndex through numberMatched, stopped at the zone cap and said so', async () => {
  const matched = BORIS_MAX_ZONES + 2 * BORIS_PAGE + 17;
  fake.get('/services/wfs/brw2026', (_req, url) => {
    const start = Number(url.searchParams.get('startIndex'));
    const n = Math.min(Number(url.searchParams.get('count')), matched - start);
    const features = Array.from({ length: n }, (_, i) => ({
      type: 'Feature',
      id: `brw2026_vector.${start + i}`,
      geometry: null,
      properties: { brw: 100 + ((start + i) % 900), nutzung: 'W' },
    }));
    return { json: { type: 'FeatureCollection', features, numberMatched: matched, numberReturned: n } };
  });
  const app = await startApp(fakeEnv(fake.url));
  try {
    const r = await app.get('/api/v1/cities/berlin/land-values');
    const s = obj(r.json, 'data.standard_land_values');
    assert.equal(s.zones_read, BORIS_MAX_ZONES);
    assert.equal(s.truncated, true);
    assert.match(str(r.json, 'data.standard_land_values_note'), /more zones than/);
    const starts = wfsRequests('/services/wfs/brw2026').map((q) => Number(q.get('startIndex')));
    assert.deepEqual(
      starts,
      Array.from({ length: BORIS_MAX_ZONES / BORIS_PAGE }, (_, i) => i * BORIS_PAGE),
    );
  } finally {
    await app.close();
  }
});
