import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerCityParking } from './fixtures/city-parking/routes.ts';
import { hasRedisServer, RedisProcess } from './helpers/redis-server.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import type { DataType } from '../src/core/data-type.ts';
import { RedisStore } from '../src/store/redis.ts';
import { ResilientStore } from '../src/store/resilient.ts';
import { SseReader } from './helpers/sse.ts';
import { dresdenWith, freeOf } from './helpers/dresden-parking.ts';

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
