import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/core/config.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { useFakeUpstream } from './helpers/setup.ts';
import { register as registerSmard } from './fixtures/smard/routes.ts';
import { fakeEnv, get } from './helpers/app.ts';
import { freePort } from './helpers/free-port.ts';
import { at, str } from './helpers/json.ts';

const fake = useFakeUpstream(registerSmard);

test('an unreachable Redis: health degraded with the reason naming the store, one warning per outage, never its address', async () => {
  const port = await freePort();
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig(
    {
      ...fakeEnv(fake.url),
      LOG_LEVEL: 'warn',
      JOBS_ENABLED: 'false',
      RATE_LIMIT_ENABLED: 'false',
      HISTORY_PATH: ':memory:',
      REDIS_URL: `redis://127.0.0.1:${port}`,
    },
    CATALOG.sources,
  );
  const built = await buildApp(config, { logStream });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  try {
    for (let i = 0; i < 3; i++) {
      assert.equal((await get(`${url}/api/v1/cities/berlin/power-price`)).status, 200);
      const health = await get(`${url}/api/v1/health`);
      assert.equal(health.status, 200);
      assert.equal(str(health.json, 'data.status'), 'degraded');
      assert.deepEqual(
        (at(health.json, 'data.reasons') as string[]).map((r) => r.split(':')[0]),
        ['cache store (redis) unreachable'],
      );
      assert.ok(!health.text.includes(`:${port}`));
    }
  } finally {
    await built.close();
  }
  const warnings = lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 40);
  assert.equal(warnings.filter((l) => /Redis \(REDIS_URL\)/.test(l)).length, 1, warnings.join('\n'));
  for (const l of warnings) assert.ok(!l.includes(`:${port}`) && !l.includes('redis://'), l);
});
