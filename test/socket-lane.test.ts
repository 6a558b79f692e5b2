import { test, before, after, describe } from 'node:test';
import { connect } from 'node:net';
import assert from 'node:assert/strict';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { RawConnection, getRequest, header, type WireResponse } from './helpers/raw-connection.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import type { DataType } from '../src/core/data-type.ts';
import { at } from './helpers/json.ts';
import { eventually } from './helpers/wait.ts';

/**
 * The socket lane (src/http/socket-lane.ts): fresh cache HITs answered on new connections before
 * Node's HTTP parser. Its answers must be the full path's answers, and whatever it declines must
 * reach Node exactly as sent, in order, on the same connection.
 */
const weather = CATALOG.byType.get('weather')!;
/** A one-second fresh window, so an entry goes stale within a test. */
const quickWeather: DataType = { ...weather, cache: { freshSeconds: 1, staleSeconds: 60 } };
const PATH = '/api/v1/cities/bonn/weather';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const fake = useFakeUpstream(registerBrightSky);

/** Headers without the ones written per response (Date) or per connection. */
function stable(r: WireResponse): [string, string][] {
  return r.headers.filter(([k]) => !['date'].includes(k));
}

/** A HIT answered through Fastify (fetch's pooled connection went to Node at its first request), then the prepared URL is in the lane. */
async function warm(app: TestApp, path = PATH): Promise<{ etag: string; body: string }> {
  await app.get(path);
  const hit = await app.get(path);
  assert.equal(at(hit.json, 'meta.cache_status'), 'HIT');
  return { etag: hit.headers.get('etag')!, body: hit.text };
}

describe('the socket lane', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ ...fakeEnv(fake.url), METRICS_PUBLIC: 'true' });
  });
  after(async () => {
    await app.close();
  });

  test('answers a HIT on a new connection with the bytes and headers of the same answer through Node and Fastify', async () => {
    const { body } = await warm(app);
    const held = app.socketLane!.size;
    const viaLane = await RawConnection.open(app.url);
    let viaNode: RawConnection | undefined;
    try {
      viaLane.write(getRequest(PATH));
      const lane = await viaLane.read();
      assert.equal(app.socketLane?.size, held + 1, 'the lane holds the connection it answered');
      viaNode = await RawConnection.open(app.url);
      // A first request the lane declines sends the connection to Node; its second request is then the in-server lane's.
      viaNode.write(getRequest('/api/v1/cities'));
      assert.equal((await viaNode.read()).status, 200);
      viaNode.write(getRequest(PATH));
      const node = await viaNode.read();
      assert.equal(app.socketLane?.size, held + 1);
      assert.equal(lane.status, 200);
      assert.equal(lane.body, body);
      assert.deepEqual(stable(lane), stable(node));
      assert.match(header(lane, 'date') ?? '', /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      assert.equal(header(lane, 'keep-alive'), 'timeout=72');
    } finally {
      viaLane.close();
      viaNode?.close();
    }
  });

  test('pipelined requests are answered in order; at the first one it declines, Node takes the connection with the unread bytes', async () => {
    const { etag, body } = await warm(app);
    const held = app.socketLane!.size;
    const c = await RawConnection.open(app.url);
    try {
      c.write(getRequest(PATH) + getRequest(PATH, { 'If-None-Match': etag }) + getRequest('/api/v1/cities/no-such-city/weather') + getRequest(PATH));
      const [first, second, third, fourth] = [await c.read(), await c.read(), await c.read(), await c.read()];
      assert.equal(first.status, 200);
      assert.equal(first.body, body);
      assert.equal(second.status, 304);
      assert.equal(second.body, '');
      assert.equal(header(second, 'etag'), etag);
      assert.equal(header(second, 'content-length'), undefined);
      assert.equal(third.status, 404);
      assert.equal(header(third, 'content-type'), 'application/problem+json; charset=utf-8');
      assert.equal(fourth.status, 200, 'Node answers the rest, its own lane included');
      assert.equal(fourth.body, body);
      assert.equal(app.socketLane?.size, held);
      // The connection goes on under Node.
      c.write(getRequest(PATH));
      assert.equal((await c.read()).body, body);
    } finally {
      c.close();
    }
  });

  test('a head split over two packets, and requests of any other form, reach Node unchanged', async () => {
    const { body } = await warm(app);
    const held = app.socketLane!.size;
    const split = await RawConnection.open(app.url);
    try {
      const req = getRequest(PATH);
      split.write(req.slice(0, 20));
      await sleep(50);
      split.write(req.slice(20));
      const r = await split.read();
      assert.equal(r.status, 200);
      assert.equal(r.body, body);
    } finally {
      split.close();
    }
    // After a whole request, a head split at a read boundary is joined with the next read: the lane keeps the connection.
    const pipelined = await RawConnection.open(app.url);
    try {
      const req = getRequest(PATH);
      pipelined.write(req + req.slice(0, 20));
      assert.equal((await pipelined.read()).body, body);
      await sleep(50);
      pipelined.write(req.slice(20));
      assert.equal((await pipelined.read()).body, body);
      assert.equal(app.socketLane?.size, held + 1);
      // Joined once only: a head still unfinished after the next read is Node's.
      pipelined.write(req + req.slice(0, 10));
      await pipelined.read();
      await sleep(50);
      pipelined.write(req.slice(10, 30));
      await sleep(50);
      pipelined.write(req.slice(30));
      assert.equal((await pipelined.read()).body, body);
      assert.equal(app.socketLane?.size, held);
    } finally {
      pipelined.close();
    }
    const cases: { name: string; bytes: string; status: number; head?: boolean; closes?: boolean }[] = [
      { name: 'HEAD', bytes: `HEAD ${PATH} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 200, head: true },
      { name: 'HTTP/1.0', bytes: getRequest(PATH, {}, '1.0'), status: 200, closes: true },
      { name: 'Connection: close', bytes: getRequest(PATH, { Connection: 'close' }), status: 200, closes: true },
      { name: 'a body', bytes: `${getRequest(PATH, { 'Content-Length': '2' })}{}`, status: 200 },
      { name: 'chunked', bytes: `${getRequest(PATH, { 'Transfer-Encoding': 'chunked' })}0\r\n\r\n`, status: 200 },
      { name: 'no Host', bytes: `GET ${PATH} HTTP/1.1\r\nAccept: */*\r\n\r\n`, status: 400, closes: true },
      { name: 'a header line without a colon', bytes: `GET ${PATH} HTTP/1.1\r\nHost: x\r\nBroken\r\n\r\n`, status: 400, closes: true },
      { name: 'a control character in a value', bytes: `GET ${PATH} HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n`, status: 400, closes: true },
      { name: 'If-None-Match twice', bytes: getRequest(PATH, { 'If-None-Match': '"a"' }).replace('\r\n\r\n', '\r\nIf-None-Match: "b"\r\n\r\n'), status: 200 },
      { name: 'lower-case method', bytes: `get ${PATH} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 400, closes: true },
    ];
    for (const c of cases) {
      const conn = await RawConnection.open(app.url);
      try {
        conn.write(c.bytes);
        const r = await conn.read({ head: c.head });
        assert.equal(r.status, c.status, c.name);
        if (c.status === 200 && !c.head) assert.equal(r.body, body, c.name);
        if (c.head) assert.equal(r.body, '', c.name);
        if (r.status >= 400) assert.match(r.body, /"code":"[a-z_]+"/, `${c.name}: a problem document`);
        if (c.closes) await conn.closedByServer();
        assert.equal(app.socketLane?.size, held, `${c.name}: Node holds the connection`);
      } finally {
        conn.close();
      }
    }
  });

  test('header names in any case, extra headers and a GPT client are read as Node reads them', async () => {
    const { etag, body } = await warm(app);
    const held = app.socketLane!.size;
    const c = await RawConnection.open(app.url);
    try {
      c.write(getRequest(PATH, { 'IF-NONE-MATCH': `W/${etag}`, Accept: 'application/json', 'X-Request-Id': 'abc' }));
      assert.equal((await c.read()).status, 304);
      c.write(getRequest(PATH, { accept: '*/*', 'accept-encoding': 'gzip' }));
      assert.equal((await c.read()).body, body);
      assert.equal(app.socketLane?.size, held + 1);
      // Another channel is Fastify's (its answers are counted and shaped per channel).
      c.write(getRequest(PATH, { 'User-Agent': 'Mozilla/5.0 ChatGPT-User/1.0' }));
      assert.equal((await c.read()).status, 200);
      assert.equal(app.socketLane?.size, held);
    } finally {
      c.close();
    }
  });

  test('a client that pipelines thousands of requests without reading is held back, then gets every answer in order', async () => {
    const { body } = await warm(app);
    const held = app.socketLane!.size;
    const one = await RawConnection.open(app.url);
    one.write(getRequest(PATH));
    const sample = await one.read();
    one.close();
    const length = Buffer.byteLength(`HTTP/1.1 200 OK\r\n${sample.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`) + Buffer.byteLength(body);
    const n = 20_000;
    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.pause();
    socket.write(getRequest(PATH).repeat(n));
    // Far more than the socket buffers hold: the lane must wait for the client to read.
    await sleep(300);
    let received = 0;
    let tail = Buffer.alloc(0);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`only ${received} of ${n * length} bytes`)), 20_000);
      socket.on('data', (d: Buffer) => {
        received += d.length;
        tail = Buffer.concat([tail, d]).subarray(-200);
        if (received >= n * length) {
          clearTimeout(t);
          resolve();
        }
      });
      socket.resume();
    });
    assert.equal(received, n * length);
    assert.ok(tail.toString('utf8').endsWith(body.slice(-200)));
    assert.equal(app.socketLane?.size, held + 1, 'every answer came from the lane: heads split at read boundaries were joined');
    socket.destroy();
  });

  test('the lane counts its answers in the request metrics', async () => {
    await warm(app);
    const count = async () => {
      const text = (await app.get('/metrics')).text;
      return Number(/^http_requests_total\{method="GET",route="\/api\/v1\/cities\/:slug\/weather",status="200"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await count();
    const c = await RawConnection.open(app.url);
    try {
      for (let i = 0; i < 3; i++) {
        c.write(getRequest(PATH));
        await c.read();
      }
    } finally {
      c.close();
    }
    assert.equal(await count(), before + 3);
  });

  test('a client that ends its side after its last request gets the answer, then the end', async () => {
    const { body } = await warm(app);
    const c = await RawConnection.open(app.url);
    c.socket.end(getRequest(PATH));
    const r = await c.read();
    assert.equal(r.body, body);
    await c.closedByServer();
  });

  test('an idle held connection is closed when the server closes, without waiting for its keep-alive time', async () => {
    const own = await startApp(fakeEnv(fake.url));
    await warm(own);
    const held = own.socketLane!.size;
    const c = await RawConnection.open(own.url);
    c.write(getRequest(PATH));
    await c.read();
    assert.equal(own.socketLane?.size, held + 1);
    const started = Date.now();
    await own.close();
    await c.closedByServer();
    assert.ok(Date.now() - started < 5000, 'closed well before the 72 s keep-alive time');
  });
});

describe('the socket lane: settings and limits', () => {
  test('SERVER_KEEP_ALIVE_TIMEOUT_MS closes an idle held connection', async () => {
    const app = await startApp({ ...fakeEnv(fake.url), SERVER_KEEP_ALIVE_TIMEOUT_MS: '1000' });
    try {
      await warm(app);
      const c = await RawConnection.open(app.url);
      c.write(getRequest(PATH));
      const r = await c.read();
      assert.equal(header(r, 'keep-alive'), 'timeout=1');
      await c.closedByServer(4000);
      assert.ok(c.closed);
    } finally {
      await app.close();
    }
  });

  test('HIT_LANE_SOCKET=false leaves every connection to Node, with the same answers', async () => {
    const app = await startApp({ ...fakeEnv(fake.url), HIT_LANE_SOCKET: 'false' });
    try {
      const { body } = await warm(app);
      assert.equal(app.socketLane, null);
      const c = await RawConnection.open(app.url);
      c.write(getRequest(PATH));
      assert.equal((await c.read()).body, body);
      c.close();
    } finally {
      await app.close();
    }
  });

  test("a stale entry is not the lane's: Node answers STALE and refreshes once", async () => {
    const app = await startApp(fakeEnv(fake.url), { catalog: buildCatalog([quickWeather]) });
    try {
      await warm(app);
      await sleep(1100);
      const held = app.socketLane!.size;
      const c = await RawConnection.open(app.url);
      c.write(getRequest(PATH));
      const r = await c.read();
      assert.equal(at(JSON.parse(r.body), 'meta.cache_status'), 'STALE');
      assert.equal(app.socketLane?.size, held, 'Node holds the connection');
      c.close();
      assert.ok(await eventually(() => fake.count('/current_weather') === 2), 'one background refresh');
    } finally {
      await app.close();
    }
  });

  test('per-origin CORS: an allowed origin is echoed, another gets only Vary, as through Fastify', async () => {
    const app = await startApp({ ...fakeEnv(fake.url), CORS_ORIGIN: 'https://a.example' });
    try {
      await warm(app);
      for (const origin of ['https://a.example', 'https://b.example']) {
        const lane = await RawConnection.open(app.url);
        const node = await RawConnection.open(app.url);
        lane.write(getRequest(PATH, { Origin: origin }));
        node.write(getRequest('/api/v1/cities'));
        await node.read();
        node.write(getRequest(PATH, { Origin: origin }));
        const [l, n] = [await lane.read(), await node.read()];
        assert.deepEqual(stable(l), stable(n), origin);
        assert.equal(header(l, 'access-control-allow-origin'), origin === 'https://a.example' ? origin : undefined);
        assert.equal(header(l, 'vary'), 'Origin');
        lane.close();
        node.close();
      }
    } finally {
      await app.close();
    }
  });

  test('the per-client rate limit applies on the lane: headers on every answer, then a 429 problem', async () => {
    const app = await startApp({ ...fakeEnv(fake.url), RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '3' });
    try {
      await warm(app);
      const c = await RawConnection.open(app.url);
      c.write(getRequest(PATH) + getRequest(PATH));
      const [a, b] = [await c.read(), await c.read()];
      assert.equal(a.status, 200);
      // Two requests warmed the entry; this is the third of three.
      assert.match(header(a, 'ratelimit') ?? '', /^"per-client";r=0;t=(59|60)$/);
      assert.match(header(a, 'ratelimit-policy') ?? '', /^"per-client";q=3;w=60$/);
      assert.equal(b.status, 429);
      assert.equal(header(b, 'content-type'), 'application/problem+json; charset=utf-8');
      assert.match(header(b, 'retry-after') ?? '', /^(59|60)$/);
      assert.equal(at(JSON.parse(b.body), 'code'), 'rate_limited');
      c.close();
    } finally {
      await app.close();
    }
  });
});
