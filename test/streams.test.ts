import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { register as registerCityParking } from './fixtures/city-parking/routes.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import { streamCadence, type DataType } from '../src/core/data-type.ts';
import { SseReader } from './helpers/sse.ts';
import { at } from './helpers/json.ts';
import { Subscriber } from '../src/streams/subscriber.ts';
import { eventually } from './helpers/wait.ts';
import { dresdenWith, freeOf } from './helpers/dresden-parking.ts';

/**
 * Server-Sent Events on the live data routes, over real HTTP against the fake upstream: the first
 * event at once, a change event after the upstream changed, Last-Event-ID resumes, the limits and
 * the shutdown. The parking type gets a short fresh window so its cache goes stale within a test.
 */
const parking = CATALOG.byType.get('parking')!;
const quickParking: DataType = { ...parking, cache: { freshSeconds: 0.05, staleSeconds: 600 } };
const weather = CATALOG.byType.get('weather')!;
const catalog = buildCatalog([quickParking, weather]);
const PATH = '/api/v1/cities/dresden/parking';

const fake = useFakeUpstream(registerCityParking);

async function withApp(env: Record<string, string>, run: (app: TestApp) => Promise<void>) {
  const app = await startApp({ ...fakeEnv(fake.url), STREAM_POLL_MS: '50', ...env }, { catalog });
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

test('the catalog decides which types stream: every live type and the declared warnings, levels and boards', () => {
  const streaming = CATALOG.all.filter((dt) => streamCadence(dt) !== null).map((dt) => dt.type);
  for (const t of ['departures-efa', 'transit-trip', 'transit-route-status', 'weather-warnings', 'civil-protection-warnings', 'water-level', 'flood'])
    assert.ok(streaming.includes(t), t);
  for (const t of ['parking', 'charging-status', 'traffic', 'incidents', 'roadworks', 'station-departures']) assert.ok(streaming.includes(t), t);
  assert.ok(!streaming.includes('weather') && !streaming.includes('demographics'));
  assert.equal(streamCadence(CATALOG.byType.get('departures-efa')!), 30);
});

test('/stream: the current envelope at once, then the new envelope after the upstream changed, incrementally over HTTP', { timeout: 20_000 }, async () => {
  await withApp({}, async (app) => {
    const s = await SseReader.open(app.url + PATH + '/stream');
    try {
      assert.equal(s.status, 200);
      assert.equal(s.header('content-type'), 'text/event-stream; charset=utf-8');
      assert.equal(s.header('cache-control'), 'no-store');
      const first = await s.next();
      assert.equal(first.event, 'message');
      assert.match(first.id ?? '', /^\d+-\d+$/);
      assert.equal(s.retry, 120_000, 'retry from live.refreshSeconds');
      assert.equal(at(JSON.parse(first.data), 'meta.type'), 'parking');
      assert.equal(at(JSON.parse(first.data), 'meta.cache_status'), undefined, 'per-request members are not in the events');
      assert.equal(freeOf(first), 212);
      // The stream is still open (the response has not ended) when the upstream changes.
      dresdenWith(fake, 213);
      const change = await s.next();
      assert.equal(freeOf(change), 213);
      assert.ok(Number(change.id!.split('-')[0]) >= Number(first.id!.split('-')[0]) && change.id !== first.id);
    } finally {
      s.close();
    }
  });
});

test('Accept: text/event-stream on the data path streams too, also for a URL the HIT lane answers', { timeout: 20_000 }, async () => {
  await withApp({}, async (app) => {
    for (let i = 0; i < 3; i++) assert.equal((await app.get(PATH)).status, 200);
    assert.ok(app.lane.size > 0, 'the URL takes the HIT lane');
    const s = await SseReader.open(app.url + PATH);
    try {
      assert.equal(s.header('content-type'), 'text/event-stream; charset=utf-8');
      assert.equal(freeOf(await s.next()), 212);
    } finally {
      s.close();
    }
  });
});

test('Last-Event-ID resumes with exactly the events after it; an id beyond the history gets a reset event', { timeout: 30_000 }, async () => {
  await withApp({}, async (app) => {
    const watch = await SseReader.open(app.url + PATH + '/stream');
    try {
      const e1 = await watch.next();
      dresdenWith(fake, 1);
      const e2 = await watch.next();
      dresdenWith(fake, 2);
      const e3 = await watch.next();
      assert.deepEqual([e2, e3].map(freeOf), [1, 2]);
      const resumed = await SseReader.open(app.url + PATH + '/stream', { 'last-event-id': e1.id! });
      try {
        assert.deepEqual(
          [await resumed.next(), await resumed.next()].map((e) => e.id),
          [e2.id, e3.id],
          'no gap',
        );
        dresdenWith(fake, 3);
        const e4 = await resumed.next();
        assert.equal(freeOf(e4), 3, 'no duplicate: the next event is the next change');
        assert.equal((await watch.next()).id, e4.id, 'one id per change for every subscriber');
      } finally {
        resumed.close();
      }
      const unknown = await SseReader.open(app.url + PATH + '/stream', { 'last-event-id': '1-0' });
      try {
        const reset = await unknown.next();
        assert.equal(reset.event, 'reset');
        assert.equal(freeOf(reset), 3, 'the current envelope');
      } finally {
        unknown.close();
      }
    } finally {
      watch.close();
    }
  });
});

test('one poller per stream key: started by the first subscriber, shared by the next, stopped with the last', { timeout: 20_000 }, async () => {
  await withApp({ METRICS_PUBLIC: 'true' }, async (app) => {
    const gauge = async (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec((await app.get('/metrics')).text)?.[1]);
    const one = await SseReader.open(app.url + PATH + '/stream');
    const two = await SseReader.open(app.url + PATH);
    await Promise.all([one.next(), two.next()]);
    assert.equal(await gauge('stadtdaten_streams_open'), 2);
    assert.equal(await gauge('stadtdaten_stream_keys'), 1, 'both forms of the request are one key');
    one.close();
    two.close();
    // The server sees the connections close: wait for that, not for a fixed time.
    assert.ok(await eventually(async () => (await gauge('stadtdaten_stream_keys')) === 0));
    assert.equal(await gauge('stadtdaten_streams_open'), 0);
  });
});

test('a type that does not stream has no /stream path and answers JSON to Accept: text/event-stream', async () => {
  await withApp({}, async (app) => {
    assert.equal((await app.get('/api/v1/cities/koeln/weather/stream')).status, 404);
    const r = await fetch(app.url + '/api/v1/cities/koeln/weather', { headers: { accept: 'text/event-stream' } });
    assert.doesNotMatch(r.headers.get('content-type') ?? '', /event-stream/);
    await r.arrayBuffer();
  });
});

test('a bad request is a problem document before any stream starts (unknown city 404)', async () => {
  await withApp({}, async (app) => {
    const r = await fetch(app.url + '/api/v1/cities/atlantis/parking/stream', { headers: { accept: 'text/event-stream' } });
    assert.equal(r.status, 404);
    assert.equal(((await r.json()) as { code: string }).code, 'city_not_found');
  });
});

test('per-client stream limit: past it a 429 problem with Retry-After; a closed stream frees its slot', { timeout: 20_000 }, async () => {
  await withApp({ STREAM_MAX_PER_CLIENT: '2' }, async (app) => {
    const open = [await SseReader.open(app.url + PATH + '/stream'), await SseReader.open(app.url + PATH + '/stream')];
    await Promise.all(open.map((s) => s.next()));
    const third = await fetch(app.url + PATH + '/stream');
    assert.equal(third.status, 429);
    assert.ok(Number(third.headers.get('retry-after')) >= 1);
    assert.equal(((await third.json()) as { code: string }).code, 'rate_limited');
    open[0]!.close();
    let again: SseReader | null = null;
    // The slot is given back when the server sees the connection close: retry until then.
    while (again === null) {
      const s = await SseReader.open(app.url + PATH + '/stream');
      if (s.status === 200) again = s;
      else await s.end();
    }
    assert.equal(freeOf(await again.next()), 212);
    again.close();
    open[1]!.close();
  });
});

test('global stream cap: past STREAM_MAX_TOTAL a 429 problem', { timeout: 20_000 }, async () => {
  await withApp({ STREAM_MAX_TOTAL: '1' }, async (app) => {
    const one = await SseReader.open(app.url + PATH + '/stream');
    await one.next();
    const two = await fetch(app.url + PATH + '/stream');
    assert.equal(two.status, 429);
    assert.match(((await two.json()) as { detail: string }).detail, /this instance/);
    one.close();
  });
});

test('heartbeat comments keep an idle stream busy', { timeout: 20_000 }, async () => {
  await withApp({ STREAM_HEARTBEAT_MS: '100' }, async (app) => {
    const s = await SseReader.open(app.url + PATH + '/stream');
    try {
      await s.next();
      assert.equal(await s.comment(), ': hb');
    } finally {
      s.close();
    }
  });
});

test(
  'shutdown ends every open stream with a final shutdown event, so clients reconnect elsewhere, and the app closes without waiting for them',
  { timeout: 20_000 },
  async () => {
    const app = await startApp({ ...fakeEnv(fake.url), STREAM_POLL_MS: '50', SHUTDOWN_GRACE_MS: '600000' }, { catalog });
    const s = await SseReader.open(app.url + PATH + '/stream');
    const first = await s.next();
    await app.close();
    const last = await s.next();
    assert.equal(last.event, 'shutdown');
    assert.equal(last.id, null, 'no id: Last-Event-ID stays the last change, where the reconnect resumes');
    assert.equal(typeof (JSON.parse(last.data) as { retry_ms?: unknown }).retry_ms, 'number');
    assert.ok(first.id);
    await s.end();
    assert.equal(s.ended, true);
  },
);

test('a reader that does not drain is dropped once its unsent bytes pass the bound, not buffered further', { timeout: 20_000 }, async () => {
  let sub: Subscriber | null = null;
  const dropped = new Promise<void>((resolve) => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      sub = new Subscriber(res, 64 * 1024, 1000);
      res.once('close', () => resolve());
      const frame = `data: ${'x'.repeat(256 * 1024)}\n\n`;
      const push = () => {
        if (sub!.closed) return;
        sub!.write(frame);
        setImmediate(push);
      };
      push();
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
      // Never read: the kernel buffers fill, then Node's.
      socket.pause();
      void dropped.then(() => {
        socket.destroy();
        server.close();
      });
    });
  });
  await dropped;
  assert.equal(sub!.closed, true);
});
