import { at } from './helpers/json.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { hasRedisServer, RedisProcess } from './helpers/redis-server.ts';

/** The per-client limit: IETF RateLimit headers, 429 problem + Retry-After, MCP batch members counted, an off switch. */
let fake: FakeUpstream;
before(async () => {
  fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
});
after(async () => {
  await fake.stop();
});

async function withApp(env: Record<string, string>, fn: (app: TestApp) => Promise<void>) {
  const app = await startApp({ ...fakeEnv(fake.url), RATE_LIMIT_ENABLED: 'true', ...env });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

test('RateLimit / RateLimit-Policy on every answer; over the limit 429 problem with Retry-After; health exempt', async () => {
  await withApp({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '60' }, async (app) => {
    for (let i = 0; i < 5; i++) {
      const r = await app.get('/api/v1/cities/berlin');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('ratelimit-policy'), '"per-client";q=5;w=60');
      assert.match(r.headers.get('ratelimit') ?? '', new RegExp(`^"per-client";r=${4 - i};t=(60|59)$`));
    }
    const over = await app.get('/api/v1/cities/berlin/weather');
    assert.equal(over.status, 429);
    assert.match(over.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(at(over.json, 'code'), 'rate_limited');
    assert.ok(at(over.json, 'hint'));
    const wait = Number(over.headers.get('retry-after'));
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
    assert.match(over.headers.get('ratelimit') ?? '', /r=0/);
    assert.match(over.headers.get('access-control-expose-headers') ?? '', /RateLimit/);
    assert.equal((await app.get('/api/v1/health')).status, 200, 'health checks are not limited');
  });
});

test('cache HITs answered by the HIT lane count against the limit and carry the same headers (RateLimit, nosniff, CORS, ETag)', async () => {
  await withApp({ RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_S: '60', CORS_ORIGIN: 'https://app.example.org' }, async (app) => {
    const path = '/api/v1/cities/freiburg/weather';
    const first = await app.get(path);
    assert.equal(first.status, 200);
    const seen: string[] = [];
    for (let i = 1; i < 6; i++) {
      const r = await app.get(path, { origin: 'https://app.example.org' });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('cache-status')?.includes('hit'), true, 'a cache HIT');
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(r.headers.get('access-control-allow-origin'), 'https://app.example.org');
      assert.ok(r.headers.get('etag'));
      assert.equal(r.headers.get('ratelimit-policy'), '"per-client";q=6;w=60');
      seen.push(r.headers.get('ratelimit') ?? '');
    }
    assert.match(seen.at(-1) ?? '', /r=0/);
    const other = await app.get(path, { origin: 'https://evil.example' });
    assert.equal(other.status, 429, 'the lane refuses over the limit like Fastify does');
    assert.equal(at(other.json, 'code'), 'rate_limited');
    assert.ok(Number(other.headers.get('retry-after')) >= 1);
    assert.equal(other.headers.get('access-control-allow-origin'), null, 'an origin outside CORS_ORIGIN gets no CORS grant');
  });
});

test('off switch: RATE_LIMIT_ENABLED=false serves everything, without RateLimit headers', async () => {
  const app = await startApp({ ...fakeEnv(fake.url), RATE_LIMIT_ENABLED: 'false', RATE_LIMIT_MAX: '2' });
  try {
    for (let i = 0; i < 6; i++) {
      const r = await app.get('/api/v1/cities/berlin');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('ratelimit'), null);
    }
  } finally {
    await app.close();
  }
});

async function mcp(app: TestApp, body: unknown) {
  const res = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

test('every member of an MCP JSON-RPC batch counts; batches are bounded', async () => {
  await withApp({ RATE_LIMIT_MAX: '10', MCP_MAX_BATCH: '8' }, async (app) => {
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'city', arguments: { slug: 'berlin' } } });
    const batch = await mcp(
      app,
      Array.from({ length: 8 }, (_, i) => call(i + 1)),
    );
    assert.notEqual(batch.status, 429);
    assert.match(batch.headers.get('ratelimit') ?? '', /r=2;/, 'eight members counted');
    const big = await mcp(
      app,
      Array.from({ length: 9 }, (_, i) => call(i + 1)),
    );
    assert.equal(big.status, 400);
    assert.match(big.text, /at most 8/);
    const over = await mcp(app, [call(1), call(2), call(3)]);
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
  });
});

test('free-text parameters that make cache keys are normalised: case and spacing variants share one entry and one upstream call', async () => {
  await withApp({ RATE_LIMIT_ENABLED: 'false' }, async (app) => {
    fake.reset();
    registerAllFixtures(fake);
    for (const stop of ['Essen Hbf', '  essen   hbf ', 'ESSEN HBF', 'Essen\u00a0Hbf']) {
      const r = await app.get(`/api/v1/live/essen/departures?stop=${encodeURIComponent(stop)}`);
      assert.equal(r.status, 200, stop);
    }
    assert.equal(fake.count('/standard/XML_DM_REQUEST'), 1);
  });
});

test(
  'with REDIS_URL the count is shared by every instance; Redis loss never fails a request',
  { skip: !hasRedisServer() && 'no redis-server installed' },
  async () => {
    const redis = await new RedisProcess().start();
    const env = { ...fakeEnv(fake.url), RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '6', REDIS_URL: redis.url, REDIS_KEY_PREFIX: `rl-test-${Date.now()}:` };
    const a = await startApp(env);
    const b = await startApp(env);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await (i % 2 ? a : b).get('/api/v1/cities/berlin')).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429], 'one budget across both instances');
      await redis.kill();
      const during = await Promise.all(Array.from({ length: 4 }, () => a.get('/api/v1/cities/hamburg')));
      assert.ok(
        during.every((r) => r.status === 200 || r.status === 429),
        during.map((r) => r.status).join(','),
      );
      assert.ok(
        during.some((r) => r.status === 200),
        'counted in-process while Redis is away, not refused',
      );
    } finally {
      await a.close();
      await b.close();
      await redis.kill();
    }
  },
);
