import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { probe, startDemo, type Demo } from '../scripts/demo.ts';
import { get } from './helpers/app.ts';
import { at } from './helpers/json.ts';

let demo: Demo;
before(async () => {
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
});
after(async () => {
  await demo.close();
});

test('npm run demo: every data type of the catalog answers from the fixtures, labelled as demo data', async () => {
  const results = await probe(demo);
  assert.equal(results.length, demo.built.rt.catalog.all.length);
  for (const r of results) {
    assert.equal(r.http, 200, `${r.path} answered ${r.http}`);
    assert.equal(r.demo, true, r.path);
    assert.ok(['ok', 'no_data', 'disabled', 'not_covered'].includes(r.status), `${r.path}: ${r.status}`);
  }
  // Only lookups of ids the fixtures cannot know (a sample trip or route id) may come back empty.
  const notOk = results.filter((r) => r.status !== 'ok').map((r) => r.type);
  assert.ok(
    notOk.every((t) => ['transit-trip', 'transit-route-status', 'transit-departures'].includes(t)),
    `not ok: ${notOk.join(', ')}`,
  );
});

test('demo overview and compare carry the demo label too', async () => {
  const o = await get(`${demo.url}/api/v1/cities/muenchen/overview`);
  assert.equal(o.status, 200);
  assert.equal(at(o.json, 'meta.demo'), true);
  const c = await get(`${demo.url}/api/v1/compare?resource=weather&cities=berlin,hamburg`);
  assert.equal(at(c.json, 'meta.demo'), true);
});
