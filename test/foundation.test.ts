import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import Fastify from 'fastify';
import { parse } from 'yaml';
import { startApp, fakeEnv, get, type TestApp } from './helpers/app.ts';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import { fullDescription, primariesOf } from '../src/core/data-type.ts';
import { esc } from '../src/http/html.ts';
import { loadAppConfig } from '../src/startup.ts';
import { registerErrorHandling } from '../src/http/errors.ts';
import { Metrics } from '../src/metrics.ts';
import { listenLocal } from '../src/local-ingress.ts';
import type { AddressInfo } from 'node:net';
import { at, list, obj, str } from './helpers/json.ts';

let app: TestApp;
let fake: FakeUpstream;
// The real catalog plus one deprecated alias declared as data, to prove the alias mechanism.
const catalog = buildCatalog(CATALOG.all.map((dt) => (dt.type === 'weather' ? { ...dt, aliases: ['/api/v1/cities/{city}/wetter'] } : dt)));

before(async () => {
  fake = await new FakeUpstream().start();
  registerBrightSky(fake);
  app = await startApp(fakeEnv(fake.url), { catalog });
});
after(async () => {
  await app.close();
  await fake.stop();
});

test('envelope: data, meta with source_status and cache_status, attribution', async () => {
  const r = await app.get('/api/v1/cities/freiburg-im-breisgau/weather');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(obj(r.json)).sort(), ['attribution', 'data', 'meta']);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.cache_status'), 'MISS');
  assert.equal(at(r.json, 'meta.city'), 'freiburg-im-breisgau');
  assert.equal(typeof at(r.json, 'attribution.license'), 'string');
});

test('every data type in the catalog has its route', async () => {
  for (const dt of app.rt.catalog.all) {
    const path = (dt.path ?? `/api/v1/cities/{city}/${dt.type}`).replace(/\{(slug|city)\}/g, 'berlin');
    if (/\{/.test(path)) continue;
    const r = await app.get(path);
    assert.notEqual(r.status, 500, path);
    assert.notEqual(at(r.json, 'code'), 'route_not_found', path);
  }
});

test('unknown route: 404 problem+json with code and hint', async () => {
  const r = await app.get('/api/v1/nope');
  assert.equal(r.status, 404);
  assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(at(r.json, 'code'), 'route_not_found');
  assert.equal(at(r.json, 'status'), 404);
  assert.equal(typeof at(r.json, 'title'), 'string');
  assert.match(str(r.json, 'hint'), /openapi/);
});

test('problem bodies never carry a stack trace or an internal path; unexpected errors are a generic 500', async () => {
  const f = Fastify({ logger: false });
  registerErrorHandling(f, new Metrics());
  f.get('/boom', async () => {
    throw new TypeError(`cannot read x of undefined at /work/main/src/secret.ts:12`);
  });
  const r = await f.inject('/boom');
  assert.equal(r.statusCode, 500);
  const body = r.json();
  assert.equal(body.code, 'internal_error');
  assert.equal(typeof body.hint, 'string');
  assert.doesNotMatch(r.body, /secret\.ts|\/work\/|at .*:\d+|TypeError/);
  await f.close();
});

test('bad paging values are 422 invalid_parameter on every paged list (as on stations), with the hint of that parameter', async () => {
  const lists = ['/api/v1/cities?', '/api/v1/sources?', '/api/v1/compare?resource=weather&cities=berlin&', '/api/v1/cities/stuttgart/charging?'];
  for (const base of lists)
    for (const q of ['limit=0', 'limit=abc', 'page=0', 'page=-1', 'offset=-5', 'offset=x']) {
      const r = await app.get(base + q);
      assert.equal(r.status, 422, base + q);
      assert.equal(at(r.json, 'code'), 'invalid_parameter', base + q);
      const name = q.split('=')[0]!;
      assert.equal(at(r.json, 'parameter'), name);
      assert.match(String(at(r.json, 'hint')), new RegExp(`^${name} must be an integer`), base + q);
    }
  assert.match(String(at((await app.get('/api/v1/cities?limit=0')).json, 'hint')), /clamped to 200/);
  const stations = await app.get('/api/v1/cities/koeln/stations?limit=0');
  assert.equal(stations.status, 422);
  assert.equal(at(stations.json, 'code'), 'invalid_parameter');
  assert.match(String(at(stations.json, 'hint')), /clamped/);
});

test('pagination: direct REST gives full lists; limit/offset page; MAX_LIMIT 200 clamps; offset past end is an empty 200', async () => {
  const full = await app.get('/api/v1/cities');
  assert.equal(at(full.json, 'data.length'), 84);
  assert.equal(at(full.json, 'meta.pagination.applied'), false);
  const page = await app.get('/api/v1/cities?limit=10&page=2');
  assert.equal(at(page.json, 'data.length'), 10);
  assert.equal(at(page.json, 'data.0.slug'), at(full.json, 'data.10.slug'));
  assert.equal(at(page.json, 'meta.pagination.limit'), 10);
  assert.equal(at(page.json, 'meta.pagination.total'), 84);
  const off = await app.get('/api/v1/cities?limit=5&offset=80');
  assert.deepEqual(
    list<{ slug: string }>(off.json, 'data').map((c: { slug: string }) => c.slug),
    list<{ slug: string }>(full.json, 'data')
      .slice(80)
      .map((c: { slug: string }) => c.slug),
  );
  const big = await app.get('/api/v1/cities?limit=5000');
  assert.equal(big.status, 200);
  assert.equal(at(big.json, 'meta.pagination.limit'), 200);
  assert.equal(at(big.json, 'meta.pagination.clamped'), true);
  const past = await app.get('/api/v1/cities?offset=1000');
  assert.equal(past.status, 200);
  assert.deepEqual(at(past.json, 'data'), []);
});

test('pagination by channel: GPT actions are bound to the default limit; limit=all and all=1 force full output', async () => {
  const bound = await app.get('/api/v1/cities', { 'x-stadtdaten-channel': 'gpt-actions' });
  assert.equal(at(bound.json, 'data.length'), 25);
  assert.equal(at(bound.json, 'meta.pagination.channel'), 'gpt-actions');
  assert.equal(at(bound.json, 'meta.pagination.applied'), true);
  for (const q of ['limit=all', 'all=1']) {
    const all = await app.get(`/api/v1/cities?${q}`, { 'x-stadtdaten-channel': 'gpt-actions' });
    assert.equal(at(all.json, 'data.length'), 84, q);
    assert.equal(at(all.json, 'meta.pagination.forced_all'), true, q);
  }
});

test('deprecated alias answers like its successor with Deprecation and a concrete Link; the successor has neither', async () => {
  const succ = await app.get('/api/v1/cities/muenchen/weather');
  const alias = await app.get('/api/v1/cities/Munich/wetter');
  assert.equal(alias.status, 200);
  assert.deepEqual(at(alias.json, 'data'), at(succ.json, 'data'));
  assert.match(alias.headers.get('deprecation') ?? '', /^@\d+$/);
  assert.equal(alias.headers.get('link'), '</api/v1/cities/muenchen/weather>; rel="successor-version"');
  assert.equal(succ.headers.get('deprecation'), null);
  assert.equal(succ.headers.get('link'), null);
});

test('openapi.yaml: application/yaml, OpenAPI 3.1, version 1.0.0, exactly the registered /api/v1 paths; aliases deprecated', async () => {
  const r = await app.get('/api/v1/openapi.yaml');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^application\/yaml/);
  const spec = parse(r.text);
  assert.match(spec.openapi, /^3\.1\./);
  assert.equal(spec.info.version, '1.0.0');
  const registered = new Set(app.routes.filter((x) => x.url.startsWith('/api/v1') && !x.doc.hidden).map((x) => x.url.replace(/:(\w+)/g, '{$1}')));
  assert.deepEqual(new Set(Object.keys(spec.paths)), registered);
  for (const p of Object.keys(spec.paths)) assert.ok(p === '/api/v1' || p.startsWith('/api/v1/'), p);
  assert.equal(spec.paths['/api/v1/cities/{city}/wetter'].get.deprecated, true);
  // Data tiers appear in the summaries of data-type endpoints: every answering source's.
  for (const dt of app.rt.catalog.all) {
    const p = dt.path ?? `/api/v1/cities/{city}/${dt.type}`;
    const tiers = /\(Tier ([A-C/]+)\)$/.exec(spec.paths[p].get.summary)?.[1]?.split('/');
    for (const s of primariesOf(dt)) assert.ok(tiers?.includes(s.source.tier), p);
  }
  assert.equal(spec.paths['/api/v1/cities/{city}/weather'].get.deprecated, undefined);
  const json = await app.get('/api/v1/openapi.json');
  assert.deepEqual(at(json.json), spec);
});

test('/docs serves the interactive documentation with its assets', async () => {
  const r = await app.get('/docs');
  assert.equal(r.status, 200);
  assert.match(r.text, /swagger-ui-bundle\.js/);
  const js = await app.get('/docs/assets/swagger-ui-bundle.js');
  assert.equal(js.status, 200);
  assert.equal((await app.get('/docs/assets/..%2Fpackage.json')).status, 404);
});

test('/docs/data-types: every data type in full; an operation whose description is cut keeps its leading sentences and links there', async () => {
  const page = await app.get('/docs/data-types');
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const spec = (await app.get('/api/v1/openapi.json')).json as { paths: Record<string, { get: { description: string } }> };
  let cut = 0;
  for (const dt of app.rt.catalog.all) {
    const full = fullDescription(dt);
    assert.ok(page.text.includes(`<section id="${dt.type}">`), dt.type);
    assert.ok(page.text.includes(esc(full)), `${dt.type}: the whole description is on the page`);
    // A streaming type's operation ends with its retry (routes/streams.ts).
    const op = spec.paths[dt.path ?? `/api/v1/cities/{city}/${dt.type}`]!.get.description.replace(/ Streams \(EventStream\): `retry` \d+ s\.$/, '');
    const link = ` [More](/docs/data-types#${dt.type})`;
    if (op.endsWith(link)) {
      cut++;
      const brief = op.slice(0, -link.length);
      assert.ok(full.startsWith(brief) && brief.length < full.length, `${dt.type}: the operation keeps the leading sentences`);
      assert.match(brief, /[.!?]$/, `${dt.type}: cut at a sentence end`);
    } else assert.equal(op, full, `${dt.type}: a short description stays whole`);
  }
  assert.ok(cut > 0, 'long descriptions are cut');
});

test('health: 200 with app status and store reachability once ready, 503 problem before', async () => {
  const r = await app.get('/api/v1/health');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'data.status'), 'ok');
  assert.equal(at(r.json, 'data.store.reachable'), true);
  app.ready.value = false;
  const notReady = await app.get('/api/v1/health');
  app.ready.value = true;
  assert.equal(notReady.status, 503);
  assert.equal(at(notReady.json, 'code'), 'not_ready');
});

test('config: invalid values stop the start with a clear message', () => {
  assert.throws(() => loadAppConfig({ PORT: 'eighty' }), /PORT must be an integer/);
  assert.throws(() => loadAppConfig({ BRIGHTSKY_BASE_URL: 'not a url' }), /BRIGHTSKY_BASE_URL must be an absolute http\(s\) URL/);
  assert.throws(() => loadAppConfig({ MAX_CITIES: '5' }), /MAX_CITIES must be between 28/);
  assert.throws(() => loadAppConfig({ BRIGHTSKY_ENABLED: 'perhaps' }), /BRIGHTSKY_ENABLED must be true or false/);
  const out = (() => {
    try {
      execFileSync('node', ['src/server.ts'], { env: { ...process.env, PORT: 'x' }, stdio: 'pipe' });
      return '';
    } catch (e) {
      return String((e as { stderr: Buffer }).stderr);
    }
  })();
  assert.match(out, /invalid configuration: PORT must be an integer/);
  assert.doesNotMatch(out, /at .*\.ts:\d+/);
});

test('README and .env.example list every environment variable (generated, in sync)', () => {
  execFileSync('node', ['scripts/env-docs.ts', '--check'], { stdio: 'pipe' });
});

test('the local ingress serves the same paths from a second address', async () => {
  const server = await listenLocal(app.app.routing.bind(app.app), '127.0.0.1', 0);
  const port = (server.address() as AddressInfo).port;
  const r = await get(`http://127.0.0.1:${port}/api/v1/cities/koeln`);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'data.slug'), 'koeln');
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
  await new Promise((res) => server.close(res));
});

test('CORS: any origin may read, no credentials, on answers and problems alike; preflight answered', async () => {
  for (const path of ['/api/v1/cities/berlin', '/api/v1/cities/berlin/weather', '/api/v1/nope']) {
    const r = await app.get(path);
    assert.equal(r.headers.get('access-control-allow-origin'), '*', path);
    assert.match(r.headers.get('access-control-expose-headers') ?? '', /ETag/, path);
  }
  const pre = await fetch(`${app.url}/api/v1/cities/berlin/weather`, {
    method: 'OPTIONS',
    headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
  });
  assert.equal(pre.status, 204);
  assert.match(pre.headers.get('access-control-allow-methods') ?? '', /GET/);
});
