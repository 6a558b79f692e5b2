import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerCityParking } from './fixtures/city-parking/routes.ts';
import { hasRedisServer, RedisProcess } from './helpers/redis-server.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import { streamCadence, type DataType } from '../src/core/data-type.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/core/config.ts';
import { eventually } from './helpers/wait.ts';
import { RedisStore } from '../src/store/redis.ts';
import { ResilientStore } from '../src/store/resilient.ts';
import { SseReader, type SseEvent } from './helpers/sse.ts';
import { dresdenWith, freeOf } from './helpers/dresden-parking.ts';
import { compareIds } from '../src/streams/event.ts';

/**
 * Two instances on one Redis: a change fetched by one reaches the streams of the other (which does
 * not poll within the test), with the same event id, and Last-Event-ID resumes on either.
 */
const parking = CATALOG.byType.get('parking')!;
const quickParking: DataType = { ...parking, cache: { freshSeconds: 0.05, staleSeconds: 600 } };
const catalog = buildCatalog([quickParking]);
const PATH = '/api/v1/cities/dresden/parking/stream';

const fake = useFakeUpstream(registerCityParking);

test(
  'two instances on Redis: the change one instance fetched reaches the other, with one id; Last-Event-ID resumes across instances',
  { skip: !hasRedisServer() && 'no redis-server installed', timeout: 30_000 },
  async () => {
    const redis = await new RedisProcess().start();
    const prefix = `sse-test-${process.pid}:`;
    const env = { ...fakeEnv(fake.url), REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix };
    const storeOf = () => new ResilientStore(new RedisStore(redis.url, { keyPrefix: prefix }));
    // A polls every 50 ms; B's poll interval is an hour, so whatever B's stream shows after its first event came through Redis.
    const a = await startApp({ ...env, STREAM_POLL_MS: '50' }, { catalog, store: storeOf() });
    const b = await startApp({ ...env, STREAM_POLL_MS: '3600000' }, { catalog, store: storeOf() });
    const raw = new Redis(redis.url);
    const readers: SseReader[] = [];
    try {
      const onA = await SseReader.open(a.url + PATH);
      const onB = await SseReader.open(b.url + PATH);
      readers.push(onA, onB);
      const [firstA, firstB] = [await onA.next(), await onB.next()];
      assert.equal(firstA.id, firstB.id, 'one history in Redis: the same current event on both');
      assert.equal(freeOf(firstB), 212);
      dresdenWith(fake, 99);
      const [changeA, changeB] = [await onA.next(), await onB.next()];
      assert.equal(freeOf(changeB), 99, 'B sees the change A fetched');
      assert.equal(changeA.id, changeB.id);
      const keys = await raw.keys(`${prefix}stream:*`);
      assert.equal(keys.length, 1);
      assert.equal(await raw.xlen(keys[0]!), 2, 'each change appended once, whichever instances saw it');
      // A client that saw only the first event on A resumes on B.
      const resumed = await SseReader.open(b.url + PATH, { 'last-event-id': firstA.id! });
      readers.push(resumed);
      const next = await resumed.next();
      assert.equal(next.id, changeA.id);
      assert.equal(freeOf(next), 99);
      dresdenWith(fake, 100);
      assert.equal(freeOf(await resumed.next()), 100, 'no duplicate after the resume: the next event is the next change');
    } finally {
      for (const r of readers) r.close();
      raw.disconnect();
      await a.close();
      await b.close();
      await redis.kill();
    }
  },
);

test(
  'Redis down: a new stream on a new key gets its first event at once, changes keep coming from local polls, one warning per outage; after Redis returns no event twice',
  { skip: !hasRedisServer() && 'no redis-server installed', timeout: 60_000 },
  async () => {
    const redis = await new RedisProcess().start();
    const prefix = `sse-outage-${process.pid}:`;
    const config = loadConfig(
      {
        ...fakeEnv(fake.url),
        LOG_LEVEL: 'warn',
        JOBS_ENABLED: 'false',
        RATE_LIMIT_ENABLED: 'false',
        HISTORY_PATH: ':memory:',
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: prefix,
        STREAM_POLL_MS: '50',
      },
      CATALOG.sources,
    );
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
    const built = await buildApp(config, { catalog, logStream, store: new ResilientStore(new RedisStore(redis.url, { keyPrefix: prefix })) });
    await built.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    const readers: SseReader[] = [];
    const streamLines = () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg).filter((m) => /stream/i.test(m));
    try {
      const dresden = await SseReader.open(url + PATH);
      readers.push(dresden);
      assert.equal(freeOf(await dresden.next()), 212);
      await redis.kill();

      const started = Date.now();
      const cadenceMs = streamCadence(parking)! * 1000;
      const freiburg = await SseReader.open(`${url}/api/v1/cities/freiburg/parking/stream`);
      readers.push(freiburg);
      // The guard's timer is cleared: left running, it would hold the test process for a whole cadence (minutes).
      let guard: NodeJS.Timeout | undefined;
      const first = await Promise.race([
        freiburg.next(),
        new Promise<never>((_, reject) => (guard = setTimeout(() => reject(new Error('no first event within the cadence')), cadenceMs))),
      ]).finally(() => clearTimeout(guard));
      assert.ok(Date.now() - started < cadenceMs);
      assert.ok(first.id && first.event === 'message', 'the current envelope as the first event');

      dresdenWith(fake, 99);
      assert.equal(freeOf(await dresden.next()), 99, 'a change during the outage reaches the open stream (polled locally)');
      // Many polls of two keys during the outage.
      await new Promise((r) => setTimeout(r, 1000));

      await redis.start();
      assert.ok(await eventually(() => streamLines().some((m) => /reachable again/.test(m)), 20_000), streamLines().join('; '));
      // The first polls after the return append the unchanged envelope to Redis under a new id: not sent again.
      await new Promise((r) => setTimeout(r, 500));
      dresdenWith(fake, 100);
      assert.equal(freeOf(await dresden.next()), 100, 'the next change after the return, not a repeat of the last one');
      dresden.close();
      freiburg.close();

      const seen = dresden.events.map((e: SseEvent) => ({ id: e.id!, free: freeOf(e) }));
      assert.deepEqual(
        seen.map((e) => e.free),
        [212, 99, 100],
        'each change once',
      );
      for (let i = 1; i < seen.length; i++) assert.ok(compareIds(seen[i]!.id, seen[i - 1]!.id) > 0, `ids increase: ${seen.map((e) => e.id).join(', ')}`);
      const outage = streamLines();
      assert.equal(outage.filter((m) => /unreachable/.test(m)).length, 1, outage.join('; '));
      assert.equal(outage.filter((m) => /reachable again/.test(m)).length, 1, outage.join('; '));
      assert.equal(outage.length, 2, `one line when Redis is lost, one when it is back: ${outage.join('; ')}`);
    } finally {
      for (const r of readers) r.close();
      await built.close();
      await redis.kill();
    }
  },
);
