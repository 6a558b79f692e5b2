import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { SseReader } from './helpers/sse.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { examplePath } from '../src/core/data-type.ts';

/**
 * One response path: the HIT lane in front of Fastify and the router answer alike (headers, the
 * rate limit and its client address under TRUST_PROXY, compression), and stream heads get the
 * router's headers too. Requests go over node:http, which neither adds nor decodes Accept-Encoding.
 */
let fake: FakeUpstream;
before(async () => {
  fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
});
after(async () => {
  await fake.stop();
});

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body as the client reads it after undoing Content-Encoding. */
function decoded(r: Raw): string {
  const coding = r.headers['content-encoding'];
  if (coding === 'gzip') return gunzipSync(r.body).toString();
  if (coding === 'br') return brotliDecompressSync(r.body).toString();
  assert.equal(coding, undefined, `unexpected coding ${String(coding)}`);
  return r.body.toString();
}

/** Counts the requests the HIT lane answered (the server calls the lane's handle per request); `bypass` sends every request to the router. */
function countLane(app: TestApp): { n: number; bypass: boolean } {
  const seen = { n: 0, bypass: false };
  const handle = app.lane.handle.bind(app.lane);
  app.lane.handle = (req, res) => {
    if (seen.bypass) return false;
    const taken = handle(req, res);
    if (taken) seen.n++;
    return taken;
  };
  return seen;
}

async function withApp(env: Record<string, string>, fn: (app: TestApp) => Promise<void>) {
  const app = await startApp({ ...fakeEnv(fake.url), ...env });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

const WEATHER = '/api/v1/cities/freiburg-im-breisgau/weather';

test('behind TRUST_PROXY the lane and the router count one budget per forwarded client', async () => {
  await withApp({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_S: '60', TRUST_PROXY: '1' }, async (app) => {
    const lane = countLane(app);
    const a = { 'x-forwarded-for': '203.0.113.7' };
    const statuses: number[] = [];
    // MISS and HIT through the router, two lane HITs, a route the lane never serves, one more lane HIT: six requests.
    for (const path of [WEATHER, WEATHER, WEATHER, WEATHER, '/api/v1/cities/berlin', WEATHER]) statuses.push((await raw(app.url + path, a)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200]);
    assert.equal(lane.n, 3, 'three of them took the lane');
    const over = await raw(app.url + WEATHER, a);
    assert.equal(over.status, 429, 'the seventh request of that client is refused, by the lane');
    assert.equal(lane.n, 4);
    assert.equal((await raw(app.url + '/api/v1/cities/berlin', a)).status, 429, 'and by the router');
    assert.equal(JSON.parse(over.body.toString()).code, 'rate_limited');
    const other = await raw(app.url + WEATHER, { 'x-forwarded-for': '203.0.113.8' });
    assert.equal(other.status, 200, 'another forwarded client has a budget of its own');
    assert.match(String(other.headers.ratelimit), /r=5;/);
    assert.equal(lane.n, 5);
  });
});

test('gzip, brotli and identity decode to the same bytes on a MISS and a HIT (lane) alike; ETag per coding, If-None-Match matches', async () => {
  await withApp({}, async (app) => {
    const lane = countLane(app);
    const bodies = new Map<string, string>();
    const withoutStatus = (text: string) => {
      const j = JSON.parse(text) as { meta: Record<string, unknown> };
      // A MISS on another app has another fetch time.
      delete j.meta.cache_status;
      delete j.meta.fetched_at;
      return JSON.stringify(j);
    };
    // The first request of each coding meets a cold cache (another app each), the later ones the lane.
    for (const coding of ['gzip', 'br', 'identity']) {
      const fresh = await startApp(fakeEnv(fake.url));
      try {
        const miss = await raw(fresh.url + WEATHER, { 'accept-encoding': coding });
        assert.equal(JSON.parse(decoded(miss)).meta.cache_status, 'MISS');
        bodies.set(`miss ${coding}`, withoutStatus(decoded(miss)));
      } finally {
        await fresh.close();
      }
    }
    await raw(app.url + WEATHER);
    await raw(app.url + WEATHER);
    for (const coding of ['gzip', 'br', 'identity']) {
      const hit = await raw(app.url + WEATHER, { 'accept-encoding': coding });
      assert.equal(hit.status, 200);
      assert.equal(hit.headers['content-encoding'], coding === 'identity' ? undefined : coding);
      assert.match(String(hit.headers.vary), /accept-encoding/);
      assert.equal(Number(hit.headers['content-length']), hit.body.length);
      const tag = String(hit.headers.etag);
      if (coding === 'identity') assert.doesNotMatch(tag, /-(gz|br)"$/);
      else assert.match(tag, coding === 'gzip' ? /-gz"$/ : /-br"$/);
      bodies.set(`hit ${coding}`, withoutStatus(decoded(hit)));
      const again = await raw(app.url + WEATHER, { 'accept-encoding': coding, 'if-none-match': tag });
      assert.equal(again.status, 304);
      assert.equal(again.body.length, 0);
    }
    assert.ok(lane.n >= 6, 'the HITs took the lane');
    assert.equal(new Set(bodies.values()).size, 1, 'one decoded representation');
  });
});

test('the router compresses /docs (its assets) and the OpenAPI document, CSV and HEAD; not small bodies, and not a stream', async () => {
  await withApp({}, async (app) => {
    // The page's weight is Swagger UI's script and style (the page itself is under the threshold).
    for (const path of ['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/api/v1/openapi.json']) {
      const r = await raw(app.url + path, { 'accept-encoding': 'gzip' });
      assert.equal(r.status, 200, path);
      assert.equal(r.headers['content-encoding'], 'gzip', path);
      assert.equal(decoded(r), (await raw(app.url + path)).body.toString(), path);
    }
    const csvPath = '/api/v1/cities/freiburg-im-breisgau/weather?format=csv';
    const csv = await raw(app.url + csvPath, { 'accept-encoding': 'br' });
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /text\/csv/);
    assert.equal(decoded(csv), (await raw(app.url + csvPath)).body.toString());
    const head = await raw(app.url + WEATHER, { 'accept-encoding': 'gzip' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    const small = await raw(app.url + '/api/v1/health', { 'accept-encoding': 'gzip' });
    assert.ok(small.body.length < 1024 && small.headers['content-encoding'] === undefined, 'under COMPRESS_THRESHOLD_BYTES');
  });
});

/** A streaming type's example path, served by the fixtures. */
const streaming = CATALOG.all.find((dt) => dt.type === 'parking')!;

test("a stream head carries the router headers: RateLimit, CORS, nosniff, an alias's Deprecation, and no Content-Encoding", async () => {
  await withApp({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '100' }, async (app) => {
    const s = await SseReader.open(app.url + examplePath(streaming) + '/stream', { 'accept-encoding': 'gzip, br' });
    try {
      assert.equal(s.status, 200);
      assert.match(s.header('content-type') ?? '', /text\/event-stream/);
      assert.equal(s.header('ratelimit-policy'), '"per-client";q=100;w=60');
      assert.match(s.header('ratelimit') ?? '', /^"per-client";r=99;t=\d+$/);
      assert.equal(s.header('x-content-type-options'), 'nosniff');
      assert.equal(s.header('access-control-allow-origin'), '*');
      assert.equal(s.header('content-encoding'), undefined);
      assert.ok(await s.next(), 'the first event arrives uncompressed');
    } finally {
      s.close();
    }
    // A deprecated alias's stream: the Deprecation and Link its route's hook sets reach the head.
    const alias = await SseReader.open(app.url + '/api/v1/cities/koeln/water-level', { accept: 'text/event-stream' });
    try {
      assert.equal(alias.status, 200);
      assert.match(alias.header('content-type') ?? '', /text\/event-stream/);
      assert.match(alias.header('deprecation') ?? '', /^@\d+$/);
      assert.match(alias.header('link') ?? '', /rel="successor-version"/);
      assert.match(alias.header('ratelimit') ?? '', /^"per-client";r=98;/);
    } finally {
      alias.close();
    }
  });
});

/** Headers compared between the two paths: Date is per response, RateLimit counts down. */
function comparable(h: IncomingHttpHeaders): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(h)) if (k !== 'date') out[k] = k === 'ratelimit' ? String(v).replace(/r=\d+;t=\d+/, 'r=_;t=_') : v;
  return out;
}

test('ten URLs: the router HIT and the lane HIT answer with the same headers (Date and the RateLimit count aside)', async () => {
  await withApp({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '100000' }, async (app) => {
    const lane = countLane(app);
    const candidates = [
      '/api/v1/cities',
      '/api/v1/sources',
      '/api/v1/cities/berlin',
      WEATHER,
      `${WEATHER}?unused=1`,
      '/api/v1/cities/Freiburg-im-Breisgau/weather',
      ...CATALOG.all.map((dt) => examplePath(dt)),
    ];
    const compared: string[] = [];
    for (const path of candidates) {
      if (compared.length === 10) break;
      const variants: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br', 'if-none-match': '"x"' }];
      for (const headers of variants) {
        // Twice, so a data route's entry is a HIT with a prepared answer and the URL is in the lane.
        await raw(app.url + path, headers);
        await raw(app.url + path, headers);
        lane.bypass = true;
        const router = await raw(app.url + path, headers);
        lane.bypass = false;
        const before = lane.n;
        const viaLane = await raw(app.url + path, headers);
        if (lane.n === before) continue;
        assert.equal(router.status, 200, path);
        assert.deepEqual(comparable(viaLane.headers), comparable(router.headers), `${path} ${JSON.stringify(headers)}`);
        assert.deepEqual(viaLane.body, router.body, path);
        if (!compared.includes(path)) compared.push(path);
      }
    }
    assert.equal(compared.length, 10, `compared ${compared.join(' ')}`);
  });
});

test('COMPRESS_ENABLED=false (a proxy in front compresses): identity bytes on both paths, no Vary on Accept-Encoding for it', async () => {
  await withApp({ COMPRESS_ENABLED: 'false' }, async (app) => {
    const lane = countLane(app);
    for (let i = 0; i < 3; i++) {
      const r = await raw(app.url + WEATHER, { 'accept-encoding': 'gzip, br' });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], undefined);
      assert.doesNotMatch(String(r.headers.vary), /accept-encoding/);
    }
    assert.equal(lane.n, 1, 'the third request took the lane');
    const docs = await raw(app.url + '/docs/assets/swagger-ui.css', { 'accept-encoding': 'gzip' });
    assert.equal(docs.headers['content-encoding'], undefined);
  });
});
