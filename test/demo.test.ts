import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { probe, startDemo, type Demo } from '../scripts/demo.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { get } from './helpers/app.ts';
import { at } from './helpers/json.ts';

let demo: Demo;
before(async () => {
  // A short poll cadence, so the test can outlive three intervals (when undisturbed indexes would expire).
  process.env.GTFS_RT_POLL_INTERVAL_S = '5';
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
});
after(async () => {
  delete process.env.GTFS_RT_POLL_INTERVAL_S;
  await demo.close();
});

test('npm run demo: every data type answers ok for the city its fixtures model, labelled as demo data', async () => {
  const results = await probe(demo);
  assert.equal(results.length, demo.built.rt.catalog.all.length);
  for (const r of results) {
    const dt = CATALOG.byType.get(r.type)!;
    assert.equal(r.http, 200, `${r.path} answered ${r.http}`);
    assert.equal(r.demo, true, r.path);
    assert.equal(r.status, 'ok', `${r.path}: ${r.status}`);
    if (dt.example.city) assert.equal(r.city, dt.example.city, `${r.path} answers for the printed city`);
  }
  // Trip and route URLs carry ids of the feed, not placeholders.
  const trip = results.find((r) => r.type === 'transit-trip')!;
  assert.match(trip.path, /\/trips\/1910001$/);
});

test('demo transit keeps answering: the poller keeps polling past three intervals', { timeout: 60_000 }, async () => {
  await new Promise((r) => setTimeout(r, 17_000));
  for (const type of ['transit-departures', 'transit-trip', 'transit-route-status']) {
    const r = (await probe(demo)).find((x) => x.type === type)!;
    assert.equal(r.status, 'ok', `${r.path} after 17 s: ${r.status}`);
  }
});

test('demo: health says demo, HTML pages carry the demo banner, overview and compare carry the label', async () => {
  const h = await get(`${demo.url}/api/v1/health`);
  assert.equal(at(h.json, 'data.demo'), true);
  for (const page of ['/', '/coverage', '/coverage/koeln', '/docs']) {
    const r = await get(demo.url + page);
    assert.equal(r.status, 200, page);
    assert.match(r.text, /Demo mode/, page);
  }
  const o = await get(`${demo.url}/api/v1/cities/muenchen/overview`);
  assert.equal(at(o.json, 'meta.demo'), true);
  const c = await get(`${demo.url}/api/v1/compare?resource=weather&cities=berlin,hamburg`);
  assert.equal(at(c.json, 'meta.demo'), true);
});
