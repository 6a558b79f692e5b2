import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cluster } from '../../bench/scale-out/cluster.ts';
import { cutPostgres, killOne, recordedOnce, restartRedis, sharedBudget, startCluster, type ScaleOutOptions } from '../../bench/scale-out/scenarios.ts';
import { hasRedisServer } from '../helpers/redis-server.ts';
import { NGINX_MISSING } from '../helpers/proxies.ts';
import { postgresReachable } from '../helpers/postgres.ts';

/**
 * Scale-out proven under failure, the short version of bench/scale-out.ts (its figures are in bench/README.md):
 * three instances (separate processes) behind the shipped deploy/nginx/stadtdaten.conf, one private Redis, one
 * private PostgreSQL schema, the fake upstreams; 100 requests/s through nginx over about twenty URLs (JSON, CSV,
 * GeoJSON, a history query, an MCP call) and 20 stream clients per scenario, while Dresden's parking feed changes
 * four times a second (each change one event and one history point). The scenarios share one cluster and run in order.
 */
const O: ScaleOutOptions = {
  instances: 3,
  perSecond: 100,
  streams: 20,
  settleMs: 1500,
  redisDownMs: 3000,
  pgDownMs: 5000,
  tickMs: 250,
  pollMs: 200,
  rateLimitMax: 30,
};

const skip = !hasRedisServer() ? 'no redis-server installed' : NGINX_MISSING || (!(await postgresReachable()) && 'PostgreSQL not reachable');

describe('three instances behind nginx with Redis and PostgreSQL, under load', { skip }, () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster(O);
  });
  after(async () => {
    await c?.stop();
  });

  test('one instance SIGKILLed and restarted: no request fails through nginx; every stream resumes with Last-Event-ID, missing no event, none twice, never an older value', async () => {
    const k = await killOne(c, O);
    assert.deepEqual(k.load.failures, [], `${k.load.failed} of ${k.load.requests} failed`);
    assert.ok(k.load.requests >= O.perSecond * 3, `${k.load.requests} requests`);
    const s = k.streams;
    assert.ok(s.reconnects > 0, "the killed instance's streams reconnected");
    assert.equal(s.resets, 0, 'every resume id was found in the shared history');
    assert.deepEqual(s.missed, [], 'every event of the key in Redis reached every client within its span');
    assert.deepEqual(s.repeated, []);
    assert.deepEqual(s.backwards, [], 'no older value as a new event');
    assert.deepEqual(s.idsOutOfOrder, []);
  });

  test('Redis restarted under load: no request fails; open streams go on, new ones start while it is away, and after it returns no event comes twice or older', async () => {
    const r = await restartRedis(c, O);
    assert.deepEqual(r.load.failures, [], `${r.load.failed} of ${r.load.requests} failed`);
    assert.equal(r.existingServedDuringOutage, r.existing.clients, 'every open stream got changes while Redis was away');
    assert.equal(r.existing.reconnects, 0, 'open streams stayed open');
    assert.equal(r.openedStarted, r.opened.clients, 'streams opened while Redis was away started');
    assert.ok(r.eventsAfterReturn > 0, 'changes after the return');
    for (const s of [r.existing, r.opened]) {
      assert.deepEqual(s.repeated, []);
      assert.deepEqual(s.backwards, []);
      assert.deepEqual(s.idsOutOfOrder, []);
    }
  });

  test('PostgreSQL cut off under load: no request but history fails, and history only with 503 history_store_unavailable; no point lost', async () => {
    const p = await cutPostgres(c, O);
    assert.deepEqual(
      p.load.failures.filter((f) => !/\/history\?/.test(f) || !/history_store_unavailable/.test(f)),
      [],
    );
    assert.ok(p.fetchedDuringOutage > 0, 'changes fetched while it was away');
    assert.deepEqual(p.lost, [], `${p.recorded} of ${p.expected} recorded ${p.catchUpMs} ms after the return; ${p.lastError}`);
    assert.deepEqual(
      Object.keys(p.historyDuring).filter((k) => k !== '503 history_store_unavailable'),
      [],
      'history answers while it is away',
    );
  });

  test('the rate limit is one budget across the three instances', async () => {
    const b = await sharedBudget(c, O);
    assert.deepEqual(b, { sent: O.rateLimitMax * 1.5, ok: O.rateLimitMax, limited: O.rateLimitMax / 2, other: [] });
  });

  test('each as_of is recorded once, although every instance fetched and recorded', async () => {
    const once = await recordedOnce(c);
    assert.ok(once.points > 10, `${once.points} points`);
    assert.deepEqual(once.duplicates, []);
  });
});
