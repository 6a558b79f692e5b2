import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFault, runFuzz, runRedisLoss } from '../../bench/reliability/scenarios.ts';
import { hasRedisServer } from '../helpers/redis-server.ts';

/**
 * The short version of `npm run reliability` (bench/reliability): a few hundred fuzzed requests
 * over every OpenAPI route, two upstream fault classes, a short Redis loss. The full run and its
 * figures are in docs/reliability.md.
 */
test('fuzzer: 400 seeded requests over every OpenAPI route keep the error contract', async () => {
  const f = await runFuzz(400, 7);
  assert.equal(f.requests, 400);
  assert.equal(f.networkErrors, 0);
  assert.deepEqual(
    f.violations.map((v) => `${v.what}: ${v.method} ${v.path} -> ${v.status}`),
    [],
  );
  assert.ok(f.routes >= 40, `${f.routes} routes`);
});

for (const fault of ['http500', 'slowDrip']) {
  test(`fault ${fault}: every answer within the budget, no 500, breakers close again after it`, async () => {
    const r = await runFault(fault, ['berlin'], ['koeln'], 1);
    assert.deepEqual(r.violations, []);
    assert.deepEqual(r.stillOpen, []);
    assert.ok((r.statuses['503'] ?? 0) > 0, 'the fault reached the answers');
  });
}

test('Redis killed and restarted under load: no request fails', { skip: !hasRedisServer() && 'no redis-server installed' }, async () => {
  const r = await runRedisLoss(4000, 8);
  assert.ok(r.requests > 100, `${r.requests} requests`);
  assert.deepEqual(r.failures, []);
  assert.equal(r.failed, 0);
});
