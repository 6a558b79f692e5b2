import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { SseReader } from './helpers/sse.ts';
import { NGINX_MISSING as missing, startNginx, type Proxy } from './helpers/proxies.ts';

/**
 * deploy/nginx/stadtdaten.conf, as shipped, in front of a running instance: the only edits are the three lines the
 * file marks "adjust" (instance address, cache folder, listen port). Its cache here; what it shares with the Caddy
 * configuration (formats, compression, streams, Host) in deploy-proxies.test.ts.
 */
const fake = new FakeUpstream();
let app: TestApp;
let nginx: Proxy | null = null;
let base = '';

before(async () => {
  if (missing) return;
  registerAllFixtures(await fake.start());
  app = await startApp(fakeEnv(fake.url));
  nginx = await startNginx(new URL(app.url).host);
  base = nginx.base;
});

after(async () => {
  await nginx?.stop();
  await app?.close();
  await fake.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(base + path, { headers }).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() }));

test("nginx caches answers for the service's own max-age: one instance request, then HITs with the same bytes", { skip: missing }, async () => {
  const first = await get('/api/v1/cities/freiburg-im-breisgau/weather');
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('x-cache-status'), 'MISS');
  const second = await get('/api/v1/cities/freiburg-im-breisgau/weather');
  assert.equal(second.headers.get('x-cache-status'), 'HIT');
  assert.equal(second.text, first.text);
  assert.equal(second.headers.get('etag'), first.headers.get('etag'));
  assert.equal(fake.count('/current_weather'), 1);
  // A conditional request is answered by nginx itself from the cached ETag.
  const conditional = await get('/api/v1/cities/freiburg-im-breisgau/weather', { 'if-none-match': first.headers.get('etag')! });
  assert.equal(conditional.status, 304);
});

test('list answers are keyed on the channel, not the raw User-Agent: browsers share one entry, GPT actions get their own page', { skip: missing }, async () => {
  const path = '/api/v1/cities/berlin/tree-cadastre';
  const firefox = await get(path, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0' });
  assert.equal(firefox.status, 200);
  assert.match(firefox.headers.get('vary') ?? '', /User-Agent/, 'the service still says what its answer depends on');
  const curl = await get(path, { 'user-agent': 'curl/8.5.0' });
  assert.equal(curl.headers.get('x-cache-status'), 'HIT', 'another REST client shares the entry');
  assert.equal(curl.text, firefox.text);
  const gpt = await get(path, { 'user-agent': 'Mozilla/5.0 AppleWebKit/537.36; compatible; ChatGPT-User/1.0' });
  assert.equal(gpt.headers.get('x-cache-status'), 'MISS', 'the GPT channel is a cache entry of its own');
  const rest = JSON.parse(firefox.text) as { meta: { pagination?: { limit?: unknown } } };
  const paged = JSON.parse(gpt.text) as { meta: { pagination?: { limit?: unknown; applied?: boolean } } };
  assert.equal(paged.meta.pagination?.applied, true, 'the GPT channel got a bounded page');
  assert.notDeepEqual(paged.meta.pagination, rest.meta.pagination);
  const header = await get(path, { 'x-stadtdaten-channel': 'gpt', 'user-agent': 'curl/8.5.0' });
  assert.equal(header.headers.get('x-cache-status'), 'HIT', 'the channel header and the GPT user agent name one channel');
  assert.equal(header.text, gpt.text);
});

test("health (no-store) and problem documents are never served from nginx's cache", { skip: missing }, async () => {
  for (const path of ['/api/v1/health', '/api/v1/cities/atlantis/weather']) {
    const a = await get(path);
    const b = await get(path);
    assert.notEqual(b.headers.get('x-cache-status'), 'HIT', path);
    assert.equal(a.status, b.status);
  }
});

test(
  'Server-Sent Events pass the cache: concurrent streams (no cache lock) and Accept on a cached URL stream at once',
  { skip: missing, timeout: 30_000 },
  async () => {
    const path = '/api/v1/cities/freiburg-im-breisgau/parking';
    assert.equal((await get(path)).status, 200);
    assert.equal((await get(path)).headers.get('x-cache-status'), 'HIT');
    const streams = await Promise.all([SseReader.open(base + path + '/stream'), SseReader.open(base + path + '/stream'), SseReader.open(base + path)]);
    try {
      for (const s of streams) {
        assert.equal(s.header('content-type'), 'text/event-stream; charset=utf-8');
        assert.equal(JSON.parse((await s.next()).data).meta.type, 'parking');
      }
    } finally {
      for (const s of streams) s.close();
    }
  },
);

test('a cached answer is still served while every instance is down', { skip: missing }, async () => {
  const path = '/api/v1/live/koeln/water-level';
  const first = await get(path);
  assert.equal(first.status, 200);
  await app.close();
  const during = await get(path);
  assert.equal(during.status, 200);
  assert.equal(during.text, first.text);
});
