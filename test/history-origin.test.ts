import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerSmard } from './fixtures/smard/routes.ts';
import { at, num, str } from './helpers/json.ts';
import { freshSchema, postgresReachable } from './helpers/postgres.ts';

const fake = useFakeUpstream(registerSmard);
const SPAN = 'from=2026-09-01&to=2026-12-31&every=1d';

/** The same history store for a demo instance and then a live one: each reads only the points it recorded. */
async function origins(store: Record<string, string>) {
  const demo = await startApp({ ...fakeEnv(fake.url), ...store, DEMO: 'true' });
  try {
    assert.equal((await demo.get('/api/v1/cities/berlin/power-price')).status, 200);
    await demo.history!.settled();
    const res = await demo.get(`/api/v1/cities/berlin/power-price/history?${SPAN}`);
    assert.equal(str(res.json, 'meta.source_status'), 'ok');
    assert.equal(at(res.json, 'meta.demo'), true);
  } finally {
    await demo.close();
  }
  const live = await startApp({ ...fakeEnv(fake.url), ...store });
  try {
    const before = await live.get(`/api/v1/cities/berlin/power-price/history?${SPAN}`);
    assert.equal(str(before.json, 'meta.source_status'), 'no_data', "the demo's points are not the live instance's");
    assert.deepEqual(at(before.json, 'meta.series'), []);
    const compare = await live.get('/api/v1/compare?resource=power-price&cities=berlin&at=2026-12-01T00:00Z');
    assert.equal(at(compare.json, 'data.0.source_status'), 'no_data');
    assert.equal((await live.get('/api/v1/cities/berlin/power-price')).status, 200);
    await live.history!.settled();
    const after = await live.get(`/api/v1/cities/berlin/power-price/history?${SPAN}`);
    assert.equal(str(after.json, 'meta.source_status'), 'ok');
    assert.equal(at(after.json, 'meta.demo'), undefined);
    // The live series holds only what the live instance recorded (its value and backfill), as many points as the demo's own.
    assert.ok(num(after.json, 'meta.series.0.points') >= 1);
  } finally {
    await live.close();
  }
}

test('SQLite: points the demo recorded never appear in a live instance on the same file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-history-origin-'));
  try {
    await origins({ HISTORY_PATH: join(dir, 'history.sqlite') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('PostgreSQL: the same in one database', { skip: !(await postgresReachable()) && 'PostgreSQL not reachable' }, async () => {
  const schema = await freshSchema();
  try {
    await origins({ DATABASE_URL: schema.url });
  } finally {
    await schema.drop();
  }
});
