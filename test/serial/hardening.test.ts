import { at } from '../helpers/json.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { FakeUpstream } from '../helpers/fake-upstream.ts';
import { fakeEnv, get, startApp, type TestApp } from '../helpers/app.ts';
import { register as registerBrightSky } from '../fixtures/brightsky/routes.ts';
import { slowClient } from '../helpers/raw-http.ts';
import { listenLocal } from '../../src/local-ingress.ts';

let fake: FakeUpstream;
before(async () => {
  fake = await new FakeUpstream().start();
  registerBrightSky(fake);
});
after(async () => {
  await fake.stop();
});

async function withApp(env: Record<string, string>, fn: (app: TestApp) => Promise<void>) {
  const app = await startApp({ ...fakeEnv(fake.url), ...env });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

test('slowloris: 200 connections dribbling headers do not delay a normal request, and are closed at the headers timeout', async () => {
  await withApp({ SERVER_HEADERS_TIMEOUT_MS: '1500', SERVER_REQUEST_TIMEOUT_MS: '3000' }, async (app) => {
    const port = (app.app.server.address() as AddressInfo).port;
    const slow = Array.from({ length: 200 }, () => slowClient(port, 200));
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const r = await app.get('/api/v1/cities/koeln');
    assert.equal(r.status, 200);
    // Generous: the point is "not held behind the slow clients", not a latency figure.
    assert.ok(Date.now() - started < 1000, `a normal request took ${Date.now() - started} ms`);
    const answers = await Promise.all(slow.map((s) => s.closed));
    // Headers timeout 1.5 s, checked every 375 ms: not Node's 60 s default.
    assert.ok(Date.now() - started < 5000, `slow connections held for ${Date.now() - started} ms`);
    assert.equal(answers.length, 200);
    assert.ok(
      answers.every((a) => a.startsWith('HTTP/1.1 408')),
      'every slow connection got a 408 and was closed',
    );
  });
});

test('timeouts and the connection cap come from the environment', async () => {
  await withApp(
    { SERVER_REQUEST_TIMEOUT_MS: '7000', SERVER_HEADERS_TIMEOUT_MS: '4000', SERVER_KEEP_ALIVE_TIMEOUT_MS: '6000', SERVER_MAX_CONNECTIONS: '321' },
    async (app) => {
      const s = app.app.server;
      assert.equal(s.requestTimeout, 7000);
      assert.equal(s.headersTimeout, 4000);
      assert.equal(s.keepAliveTimeout, 6000);
      assert.equal(s.maxConnections, 321);
    },
  );
});

test('CORS_ORIGIN: * by default; a list lets only its origins read, with Vary: Origin', async () => {
  await withApp({}, async (app) => {
    const r = await app.get('/api/v1/cities/berlin', { origin: 'https://a.example' });
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
  });
  await withApp({ CORS_ORIGIN: 'https://a.example, https://b.example' }, async (app) => {
    for (const path of ['/api/v1/cities/berlin', '/api/v1/nope']) {
      const ok = await app.get(path, { origin: 'https://b.example' });
      assert.equal(ok.headers.get('access-control-allow-origin'), 'https://b.example', path);
      assert.match(ok.headers.get('vary') ?? '', /Origin/i, path);
      const other = await app.get(path, { origin: 'https://evil.example' });
      assert.equal(other.headers.get('access-control-allow-origin'), null, path);
      assert.match(other.headers.get('vary') ?? '', /Origin/i, path);
    }
  });
});

test('nosniff on every answer; a CSP on the HTML docs page, whose script is not inline', async () => {
  await withApp({}, async (app) => {
    for (const path of ['/api/v1/cities/berlin', '/api/v1/cities/bonn/weather', '/api/v1/nope', '/api/v1/openapi.json', '/docs']) {
      const r = await app.get(path);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
    }
    const docs = await app.get('/docs');
    const csp = docs.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(docs.text, /<script>/, 'no inline script');
    const start = await app.get('/docs/assets/start.js');
    assert.equal(start.status, 200);
    assert.match(start.text, /SwaggerUIBundle/);
  });
});

test('/metrics: only on the local ingress unless METRICS_PUBLIC=true', async () => {
  await withApp({}, async (app) => {
    const main = await app.get('/metrics');
    assert.equal(main.status, 404);
    assert.equal(at(main.json, 'code'), 'route_not_found');
    const local = await listenLocal(app.app.routing.bind(app.app), '127.0.0.1', 0);
    try {
      const r = await get(`http://127.0.0.1:${(local.address() as AddressInfo).port}/metrics`);
      assert.equal(r.status, 200);
      assert.match(r.text, /http_requests_total/);
    } finally {
      await new Promise((res) => local.close(res));
    }
  });
  await withApp({ METRICS_PUBLIC: 'true' }, async (app) => {
    assert.equal((await app.get('/metrics')).status, 200);
  });
});

test('/sources last_error names no internal address or port', async () => {
  // A port nothing listens on: connection refused.
  const dead = new FakeUpstream();
  await dead.start();
  const deadUrl = dead.url;
  await dead.stop();
  await withApp({ BRIGHTSKY_BASE_URL: deadUrl }, async (app) => {
    const r = await app.get('/api/v1/cities/bonn/weather');
    assert.equal(r.status, 503);
    const src = await app.get('/api/v1/sources?limit=200');
    const row = (at(src.json, 'data') as { source: string; last_error: string | null }[]).find((s) => s.source === 'dwd-brightsky');
    assert.ok(row?.last_error, 'the failure is recorded');
    const port = new URL(deadUrl).port;
    assert.doesNotMatch(row.last_error, /127\.0\.0\.1|localhost/);
    assert.ok(!row.last_error.includes(port), `last_error "${row.last_error}" names the port`);
    assert.doesNotMatch(src.text, /ECONNREFUSED|127\.0\.0\.1:/);
  });
});

test('trustProxy is off by default: X-Forwarded-For does not change the client address', async () => {
  await withApp({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '3' }, async (app) => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await app.get('/api/v1/cities/berlin', { 'x-forwarded-for': `203.0.113.${i}` })).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  });
  await withApp({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '3', TRUST_PROXY: '127.0.0.1' }, async (app) => {
    for (let i = 0; i < 5; i++) assert.equal((await app.get('/api/v1/cities/berlin', { 'x-forwarded-for': `203.0.113.${i}` })).status, 200);
  });
});
