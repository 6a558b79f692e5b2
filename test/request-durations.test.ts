import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from './helpers/app.ts';

test('request durations: cumulative buckets per route and status, +Inf equal to the count, a sum', async () => {
  const app = await startApp({ METRICS_PUBLIC: 'true' });
  try {
    // The city list is answered by Fastify first, then by the HIT lane: both are counted.
    for (let i = 0; i < 5; i++) assert.equal((await app.get('/api/v1/cities')).status, 200);
    const text = (await app.get('/metrics')).text;
    const series = '{method="GET",route="/api/v1/cities",status="200"';
    const buckets = [...text.matchAll(/^http_request_duration_seconds_bucket\{method="GET",route="\/api\/v1\/cities",status="200",le="([^"]+)"\} (\d+)$/gm)];
    assert.ok(buckets.length > 2, 'one line per bound');
    const counts = buckets.map((m) => Number(m[2]));
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => a - b),
      'cumulative',
    );
    assert.equal(buckets.at(-1)?.[1], '+Inf');
    assert.equal(counts.at(-1), 5);
    assert.match(text, new RegExp(`^http_request_duration_seconds_count${series.replace(/[{}]/g, '\\$&')}\\} 5$`, 'm'));
    const sum = new RegExp(`^http_request_duration_seconds_sum${series.replace(/[{}]/g, '\\$&')}\\} ([\\d.e-]+)$`, 'm').exec(text);
    assert.ok(sum && Number(sum[1]) > 0);
    assert.match(text, /^# TYPE http_request_duration_seconds histogram$/m);
  } finally {
    await app.close();
  }
});
