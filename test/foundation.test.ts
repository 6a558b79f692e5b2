import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from './helpers/app.ts';

let app: TestApp;
before(async () => { app = await startApp(); });
after(async () => { await app.close(); });

test('GET /api/v1/cities lists 84 cities', async () => {
  const r = await app.get('/api/v1/cities');
  assert.equal(r.status, 200);
  assert.equal(r.json.data.length, 84);
});
