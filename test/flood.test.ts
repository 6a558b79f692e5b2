import { at, list, obj, str } from './helpers/json.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { LHP_TOKEN, register as registerLhp } from './fixtures/lhp/routes.ts';
import { extractToken, lhpTime, parseInfosPegel } from '../src/sources/lhp/parse.ts';
import { DEPRECATED_SINCE } from '../src/http/deprecation.ts';
import { CITIES } from '../src/cities/register.ts';
import { FLOOD_CITIES } from '../src/sources/lhp/gauges.ts';

const ctx = useFakeApp(registerLhp);
const { fake } = ctx;
const INFOS = '/webservices/get_infospegel.php';

test('parser: the token is the digits of the addLagePegel call, not the function definition', () => {
  assert.equal(extractToken(fixture('lhp/home-excerpt-constructed.html').toString()), LHP_TOKEN);
  assert.equal(extractToken('<script>function addLagePegel(ki) {}</script>'), null);
});

test('parser: get_infospegel: warning level, German numbers, relative time read against the Berlin day', () => {
  const now = new Date('2026-11-25T20:00:00Z');
  const g = parseInfosPegel(fixture('lhp/infospegel-SN_501060-constructed.json').toString(), 'SN_501060', now)!;
  assert.equal(g.name, 'Dresden');
  assert.equal(g.water, 'Elbe');
  assert.equal(g.warning_level, 2);
  assert.equal(g.warning_label, 'Alarmstufe 2');
  assert.equal(g.water_level_cm, 512);
  assert.equal(g.discharge_m3s, 1210);
  assert.equal(g.discharge_text, '1.210 m3/s');
  assert.equal(g.measured_at, '2026-11-24T23:45:00+01:00');
  assert.equal(g.stand_text, 'Gestern, 23:45 Uhr');
  assert.equal(g.state, 'SN');
  assert.equal(lhpTime('Heute, 18:00 Uhr', new Date('2026-07-01T10:00:00Z')), '2026-07-01T18:00:00+02:00');
  assert.equal(lhpTime('24.11.2026, 07:15 Uhr', now), '2026-11-24T07:15:00+01:00');
  assert.equal(lhpTime('unbekannt', now), null);
  assert.equal(parseInfosPegel('{"PGNR":null}', 'XX_1', now), null);
});

test('curated gauges: every covered city is a register city', () => {
  const slugs = new Set(CITIES.map((c) => c.slug));
  for (const c of FLOOD_CITIES) assert.ok(slugs.has(c), c);
});

test('GET flood (live path): level of the city gauge, Stand line, LHP attribution; token sent with the form', async () => {
  const r = await ctx.app.get('/api/v1/live/koeln/flood');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const d = obj(r.json, 'data');
  assert.equal(at(d, 'gauges.0.gauge_id'), 'NW_2730010');
  assert.equal(at(d, 'gauges.0.warning_level'), 0);
  assert.equal(at(d, 'gauges.0.water_level_cm'), 312);
  assert.equal(at(d, 'max_warning_level'), 0);
  assert.match(str(d, 'stand'), /^Stand: \d{2}\.\d{2}\.\d{4} 18:00$/);
  assert.match(str(r.json, 'attribution.text'), /www\.hochwasserzentralen\.de/);
  const post = fake.requests.find((x) => x.url === INFOS)!;
  assert.equal(new URLSearchParams(post.body).get('ki'), LHP_TOKEN);
  assert.equal(new URLSearchParams(post.body).get('pgnr'), 'NW_2730010');
});

test('flood: the old path is a deprecation alias with the same data', async () => {
  const live = await ctx.app.get('/api/v1/live/dresden/flood');
  const alias = await ctx.app.get('/api/v1/cities/dresden/flood');
  assert.equal(alias.status, 200);
  assert.deepEqual(at(alias.json, 'data'), at(live.json, 'data'));
  assert.equal(at(live.json, 'data.max_warning_level'), 2);
  assert.equal(alias.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
  assert.equal(alias.headers.get('link'), '</api/v1/live/dresden/flood>; rel="successor-version"');
});

test('flood: an expired token (empty answer) is refreshed from the home page and the call repeated', async () => {
  const fresh = await startApp(fakeEnv(fake.url));
  try {
    let served = 0;
    // The first home page hands out a token the service no longer accepts.
    fake.get('/', () => ({ body: served++ === 0 ? '<body onload="addLagePegel(111)">' : fixture('lhp/home-excerpt-constructed.html').toString() }));
    const r = await fresh.get('/api/v1/live/koeln/flood');
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(fake.count('/webservices/'), 2);
    assert.equal(served, 2);
  } finally {
    await fresh.close();
  }
});

test('flood: a home page without the token marker is a 503 problem, never a 500 or invented data', async () => {
  fake.get('/', { body: '<html>Wartungsarbeiten</html>', headers: { 'content-type': 'text/html' } });
  const fresh = await startApp(fakeEnv(fake.url));
  try {
    const r = await fresh.get('/api/v1/live/koeln/flood');
    assert.equal(r.status, 503);
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  } finally {
    await fresh.close();
  }
});

test('flood: malformed answers (not JSON; empty even with a fresh token) are a 503 problem', async () => {
  for (const reply of [{ body: '<html>Fehler</html>' }, { body: '' }]) {
    registerLhp(fake);
    fake.post(INFOS, reply);
    const fresh = await startApp(fakeEnv(fake.url));
    try {
      const r = await fresh.get('/api/v1/live/koeln/flood');
      assert.equal(r.status, 503);
    } finally {
      await fresh.close();
    }
  }
});

test('flood: a gauge LHP does not know is no_data', async () => {
  const r = await ctx.app.get('/api/v1/live/erfurt/flood');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /none of the city gauges/);
});

test('flood: a city without a curated gauge is not_covered, on the alias with Deprecation', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/flood');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  assert.ok(list<string>(r.json, 'meta.covered_cities').includes('koeln'));
  assert.equal(r.headers.get('link'), '</api/v1/live/kiel/flood>; rel="successor-version"');
  assert.equal(fake.count(), 0);
});

test('flood: LHP_ENABLED=false is disabled without an upstream call', async () => {
  await expectDisabled({ fake, env: { LHP_ENABLED: 'false' }, path: ['/api/v1/live/koeln/flood', '/api/v1/cities/koeln/flood'] });
});

test('flood: dead upstream with nothing cached is a 503 problem', async () => {
  await expectUnavailable({ fake, path: ['/api/v1/live/koeln/flood', '/api/v1/cities/koeln/flood'] });
});
