import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { probe, startDemo, type Demo } from '../scripts/demo.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { examplePath } from '../src/core/data-type.ts';
import { get } from './helpers/app.ts';
import { at, list } from './helpers/json.ts';

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

test('demo times: transit delays are minutes, and the recorded departure boards are of now', async () => {
  const hours = (iso: unknown) => Math.abs(Date.parse(String(iso)) - Date.now()) / 3_600_000;
  const transit = await get(`${demo.url}/api/v1/live/stuttgart/transit/departures`);
  assert.equal(at(transit.json, 'meta.source_status'), 'ok');
  for (const d of list<{ delay_s: number | null; planned_departure_at: string | null }>(transit.json, 'data')) {
    if (d.delay_s !== null) assert.ok(Math.abs(d.delay_s) <= 30 * 60, `delay ${d.delay_s} s`);
  }
  const trip = await get(`${demo.url}${examplePath(CATALOG.byType.get('transit-trip')!)}`);
  assert.ok(Math.abs(at(trip.json, 'data.delay_s') as number) <= 30 * 60);
  for (const type of ['station-departures', 'departures-vag', 'departures-efa', 'departures-hvv', 'departures-rmv']) {
    const r = await get(demo.url + examplePath(CATALOG.byType.get(type)!));
    assert.equal(at(r.json, 'meta.source_status'), 'ok', type);
    const planned = list<{ planned_time: string | null }>(r.json, 'data.departures').map((d) => d.planned_time);
    assert.ok(planned.length > 0, type);
    for (const p of planned) assert.ok(hours(p) < 3, `${type}: planned ${p}`);
  }
});
