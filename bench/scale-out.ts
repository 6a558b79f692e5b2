/**
 * `node bench/scale-out.ts`: three instances behind the shipped nginx with Redis and PostgreSQL
 * (bench/scale-out/), 200 requests/s over about twenty URLs plus 50 stream clients through nginx, and the faults of
 * test/serial/scale-out.test.ts at full length: one instance SIGKILLed and restarted, Redis restarted (10 s away),
 * PostgreSQL cut off for 30 s, the rate limit across instances, each value recorded once. Prints the figures
 * bench/README.md ("Scale-out under failure") and docs/operations.md ("Scale-out") quote, as JSON and a table.
 * SCALE_OUT_RATE, SCALE_OUT_STREAMS, SCALE_OUT_PG_DOWN_MS and SCALE_OUT_REDIS_DOWN_MS change the sizes.
 */
import { cpus } from 'node:os';
import { cutPostgres, killOne, recordedOnce, restartRedis, sharedBudget, startCluster, type ScaleOutOptions } from './scale-out/scenarios.ts';

const o: ScaleOutOptions = {
  instances: 3,
  perSecond: Number(process.env.SCALE_OUT_RATE ?? 200),
  streams: Number(process.env.SCALE_OUT_STREAMS ?? 50),
  settleMs: 5000,
  redisDownMs: Number(process.env.SCALE_OUT_REDIS_DOWN_MS ?? 10_000),
  pgDownMs: Number(process.env.SCALE_OUT_PG_DOWN_MS ?? 30_000),
  tickMs: 250,
  pollMs: 200,
  rateLimitMax: 60,
};

const c = await startCluster(o);
try {
  const kill = await killOne(c, o);
  const redis = await restartRedis(c, o);
  const pg = await cutPostgres(c, o);
  const budget = await sharedBudget(c, o);
  const once = await recordedOnce(c);
  const figures = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    date: new Date().toISOString().slice(0, 10),
    options: o,
    kill,
    redis,
    pg,
    budget,
    once,
  };
  console.log(JSON.stringify(figures, null, 2));
  const row = (name: string, load: { requests: number; failed: number }, rest: string) => `| ${name} | ${load.requests} | ${load.failed} | ${rest} |`;
  console.log('\n| Fault | Requests | Failed | Streams and history |\n|---|---|---|---|');
  console.log(
    row(
      'SIGKILL one instance, restart',
      kill.load,
      `${kill.streams.clients} streams, ${kill.streams.reconnects} reconnects, ${kill.streams.missed.length} events missed, ${kill.streams.repeated.length} twice, ${kill.streams.backwards.length} older; restart ${(kill.restartMs / 1000).toFixed(1)} s, longest pause between changes ${(kill.longestPauseMs / 1000).toFixed(1)} s`,
    ),
  );
  console.log(
    row(
      `Redis restarted (${o.redisDownMs / 1000} s away)`,
      redis.load,
      `${redis.existingServedDuringOutage}/${redis.existing.clients} open streams got changes meanwhile; ${redis.openedStarted}/${redis.opened.clients} new streams started (first event ≤ ${(redis.slowestFirstEventMs / 1000).toFixed(1)} s); after it: ${redis.existing.repeated.length + redis.opened.repeated.length} twice, ${redis.existing.backwards.length + redis.opened.backwards.length} older`,
    ),
  );
  console.log(
    row(
      `PostgreSQL cut off (${o.pgDownMs / 1000} s)`,
      pg.load,
      `${pg.fetchedDuringOutage} changes fetched meanwhile, ${pg.expected - pg.recorded} of ${pg.expected} points lost, written ${(pg.catchUpMs / 1000).toFixed(1)} s after its return`,
    ),
  );
  console.log(`\nRate limit (max ${o.rateLimitMax}): ${budget.sent} requests over ${o.instances} instances, ${budget.ok} answered, ${budget.limited} limited.`);
  console.log(`History: ${once.points} points, ${once.duplicates.length} as_of recorded twice.`);
} finally {
  await c.stop();
}
