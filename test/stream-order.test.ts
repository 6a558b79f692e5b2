import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalFanout } from '../src/streams/local-fanout.ts';
import { RedisFanout } from '../src/streams/redis-fanout.ts';
import { RedisStore } from '../src/store/redis.ts';
import type { Fanout } from '../src/streams/fanout.ts';
import type { EventContent } from '../src/streams/event.ts';
import { eventParts } from '../src/streams/hub.ts';
import { hasRedisServer, RedisProcess } from './helpers/redis-server.ts';

/**
 * A stream never goes back: an envelope whose data is older than the newest event's (an earlier as_of, or the same
 * as_of fetched earlier) is no change, whichever instance appends it and however close the fetches lie. Found with
 * three instances behind nginx (test/serial/scale-out.test.ts): a restarted instance appended a copy it still held
 * (free spaces 391) after the newer 395, fetched within the same second, and then 395 came again as a change; the
 * fetch times were compared by fetched_at, which has whole seconds.
 */
const SECOND = Date.parse('2026-11-24T08:10:00Z');
const content = (value: number, asOfS: number, fetchedMs: number): EventContent => ({
  hash: `h${value}`,
  body: JSON.stringify({ data: { free: value } }),
  asOfMs: SECOND + asOfS * 1000,
  fetchedMs: SECOND + fetchedMs,
});

async function checkOrder(fanout: Fanout) {
  const key = 'parking/dresden?';
  const newest = await fanout.append(key, content(395, 5, 800));
  for (const [value, asOfS, fetchedMs, why] of [
    [391, 1, 100, 'older data, fetched earlier in the same second'],
    [391, 1, 900, 'older data, although this copy was fetched later'],
    [394, 5, 700, 'the same as_of, fetched earlier: a copy kept while another instance fetched anew'],
  ] as const) {
    const kept = await fanout.append(key, content(value, asOfS, fetchedMs));
    assert.equal(kept.id, newest.id, why);
    assert.equal(kept.hash, 'h395', why);
  }
  const next = await fanout.append(key, content(396, 6, 950));
  assert.notEqual(next.id, newest.id, 'newer data is a change');
  const corrected = await fanout.append(key, content(397, 6, 990));
  assert.notEqual(corrected.id, next.id, 'the same as_of fetched later with other content is a change (a corrected value)');
  assert.deepEqual(
    (await fanout.after(key, newest.id))?.map((e) => e.hash),
    ['h396', 'h397'],
    'nothing older was appended',
  );
}

test('in one instance: an older copy is never appended as a change', async () => {
  const local = new LocalFanout(50);
  await checkOrder(local);
  await local.close();
});

test('on Redis (several instances): an older copy is never appended as a change', { skip: !hasRedisServer() && 'no redis-server installed' }, async () => {
  const redis = await new RedisProcess().start();
  const store = new RedisStore(redis.url, { keyPrefix: 'order:' });
  const fanout = new RedisFanout(redis.url, 'order:', 50, store);
  try {
    await fanout.ready(5000);
    await checkOrder(fanout);
  } finally {
    await fanout.close();
    await store.close();
    await redis.kill();
  }
});

test('events order by the exact fetch time, not by fetched_at (whole seconds)', () => {
  const outcome = (fetchedMs: number) => ({
    status: 'ok' as const,
    cacheStatus: 'HIT' as const,
    city: null,
    dataJson: '[]',
    meta: { fetched_at: '2026-11-24T09:10:00+01:00' },
    attribution: null,
    data: () => [],
    fetchedMs,
  });
  const [early, late] = [eventParts(outcome(SECOND + 100)), eventParts(outcome(SECOND + 900))];
  assert.equal(early.fetchedMs, SECOND + 100);
  assert.equal(late.fetchedMs, SECOND + 900);
  assert.equal(early.asOfMs, early.fetchedMs, 'without as_of, the data time is the fetch time');
});
