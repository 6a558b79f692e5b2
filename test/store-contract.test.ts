import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Store } from '../src/core/store.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { RedisStore } from '../src/store/redis.ts';
import { MemoryStore } from '../src/store/memory.ts';
import { ResilientStore } from '../src/store/resilient.ts';
import { REDIS_SKIP, testRedis } from './helpers/redis.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One contract, every implementation. */
function contract(name: string, make: () => Store) {
  describe(`store contract: ${name}`, () => {
    // Made when the suite starts (a Redis under test is only up by then).
    let store: Store;
    before(async () => {
      store = make();
      await store.ready?.(3000);
    });
    after(() => store.close());

    test('set/get/del round-trip; missing key is null', async () => {
      assert.equal(await store.get('nope'), null);
      await store.set('a', 'ä-1\n{"x":1}');
      assert.equal(await store.get('a'), 'ä-1\n{"x":1}');
      await store.del('a');
      assert.equal(await store.get('a'), null);
    });

    test('a TTL expires the value', async () => {
      await store.set('ttl', 'v', 400);
      assert.equal(await store.get('ttl'), 'v');
      await sleep(450);
      assert.equal(await store.get('ttl'), null);
    });

    test('setIfAbsent is a lock: one winner until it expires or is released', async () => {
      // Long enough not to expire on a loaded machine before the checks below; the expiry has its own step.
      assert.equal(await store.setIfAbsent('lock', 't1', 10_000), true);
      assert.equal(await store.setIfAbsent('lock', 't2', 10_000), false);
      await store.delIfEquals('lock', 't2');
      assert.equal(await store.get('lock'), 't1', 'a foreign token does not release the lock');
      await store.delIfEquals('lock', 't1');
      assert.equal(await store.setIfAbsent('lock', 't3', 60), true);
      await sleep(120);
      assert.equal(await store.setIfAbsent('lock', 't4', 60), true, 'an expired lock can be taken');
    });

    test('concurrent setIfAbsent: exactly one winner', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.setIfAbsent('race', String(i), 1000)));
      assert.equal(results.filter(Boolean).length, 1);
    });

    test('incr counts within its window', async () => {
      assert.equal(await store.incr('ctr', 400), 1);
      assert.equal(await store.incr('ctr', 400), 2);
      await sleep(450);
      assert.equal(await store.incr('ctr', 400), 1);
    });

    test('keys lists by prefix, without expired ones', async () => {
      await store.set('pfx:1', 'a');
      await store.set('pfx:2', 'b', 50);
      await store.set('other', 'c');
      await sleep(100);
      assert.deepEqual((await store.keys('pfx:')).sort(), ['pfx:1']);
    });

    test('ping answers true', async () => {
      assert.equal(await store.ping(), true);
    });
  });
}

contract('sqlite (embedded default)', () => new SqliteStore(':memory:'));
describe('store contract on Redis', { skip: REDIS_SKIP }, () => {
  let redis: Awaited<ReturnType<typeof testRedis>> | null = null;
  before(async () => {
    redis = await testRedis();
  });
  after(() => redis?.stop());
  const url = () => redis?.url ?? 'redis://127.0.0.1:1';
  contract('redis', () => new RedisStore(url(), { keyPrefix: `test:${randomUUID()}:` }));
  contract('memory (fallback)', () => new MemoryStore());
  contract('resilient redis wrapper', () => new ResilientStore(new RedisStore(url(), { keyPrefix: `test:${randomUUID()}:` })));
});

test('sqlite store survives a restart (same file)', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'stadtdaten-')), 'store.sqlite');
  const a = new SqliteStore(file);
  await a.set('persist', 'yes', 60_000);
  await a.close();
  const b = new SqliteStore(file);
  assert.equal(await b.get('persist'), 'yes');
  await b.close();
});

test('resilient store: a dead Redis degrades to the in-process store and reports unreachable', async () => {
  const s = new ResilientStore(new RedisStore('redis://127.0.0.1:1', { commandTimeoutMs: 100 }));
  await s.set('k', 'v');
  assert.equal(await s.get('k'), 'v');
  assert.equal(s.reachable, false);
  assert.equal(await s.ping(), false);
  await s.close();
});
