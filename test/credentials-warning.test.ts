import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/core/config.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { privateStores } from './helpers/stores.ts';

/** The warnings one start logs with these settings (pino lines of level 40). */
async function startWarnings(env: Record<string, string>): Promise<string[]> {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({ LOG_LEVEL: 'warn', JOBS_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false', ...privateStores(), ...env }, CATALOG.sources);
  const built = await buildApp(config, { store: new SqliteStore(':memory:'), logStream });
  await built.close();
  return lines
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.level === 40 && /credentials/.test(l.msg))
    .map((l) => l.msg);
}

test('a half-set credential logs exactly one warning at start naming the missing variable, never a value', async () => {
  const warnings = await startWarnings({ GENESIS_USERNAME: 'user-s3cret-value' });
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /genesis-regionalstatistik lacks GENESIS_PASSWORD/);
  assert.doesNotMatch(warnings[0]!, /s3cret/);

  // Several half-set sources are still one warning; sources sharing the same gap are named together.
  const two = await startWarnings({ GENESIS_PASSWORD: 'pw-s3cret', DB_CLIENT_ID: 'id-s3cret' });
  assert.equal(two.length, 1, two.join('\n'));
  assert.match(two[0]!, /lacks GENESIS_USERNAME/);
  assert.match(two[0]!, /db-timetables[^;]*lack DB_API_KEY/);
  assert.doesNotMatch(two[0]!, /s3cret/);
});

test('complete, absent or shared-and-used credentials log no credential warning', async () => {
  assert.deepEqual(await startWarnings({}), []);
  assert.deepEqual(await startWarnings({ GENESIS_USERNAME: 'u', GENESIS_PASSWORD: 'p' }), []);
  // The Mobilithek certificate serves Hannover in full: the other city feeds without a subscription are no mistake.
  assert.deepEqual(await startWarnings({ MOBILITHEK_CERT_PATH: '/tmp/c.p12', MOBILITHEK_CERT_PASSWORD: 'p', HANNOVER_TRAFFIC_SUBSCRIPTION_ID: '1' }), []);
  // A source switched off is not warned about.
  assert.deepEqual(await startWarnings({ GENESIS_USERNAME: 'u', GENESIS_ENABLED: 'false' }), []);
  // One parking subscription of two is.
  const parking = await startWarnings({
    MOBILITHEK_CERT_PATH: '/tmp/c.p12',
    MOBILITHEK_CERT_PASSWORD: 'p',
    HANNOVER_TRAFFIC_SUBSCRIPTION_ID: '1',
    FRANKFURT_PARKING_STATIC_SUBSCRIPTION_ID: '2',
  });
  assert.equal(parking.length, 1);
  assert.match(parking[0]!, /mobilithek-parking-frankfurt-am-main lacks FRANKFURT_PARKING_DYNAMIC_SUBSCRIPTION_ID/);
});
