import { at, list } from '../helpers/json.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from '../helpers/setup.ts';
import { registerAllFixtures } from '../fixtures/index.ts';
import { fixture } from '../helpers/fake-upstream.ts';
import { CITIES } from '../../src/cities/register.ts';

/**
 * The cold path at the default settings (no COMPARE_CONCURRENCY or OVERVIEW_BUDGET_MS given):
 * compare fetches the 28 core cities in one wave; the overview answers under its 3 s cap while an
 * upstream hangs. Latency is measured in bench/; the only time bound here is the product's cap.
 */
const ctx = useFakeApp(registerAllFixtures);
const { fake } = ctx;
const CORE = CITIES.filter((c) => c.core).map((c) => c.slug);

test('compare over the 28 core cities: every cold upstream call is in flight at once at the default concurrency', async () => {
  assert.equal(CORE.length, 28);
  let inflight = 0;
  let peak = 0;
  const body = fixture('brightsky/current_weather-feldberg-2022-07-24.json');
  fake.get('/current_weather', async () => {
    inflight++;
    peak = Math.max(peak, inflight);
    await new Promise((r) => setTimeout(r, 100));
    inflight--;
    return { body, headers: { 'content-type': 'application/json' } };
  });
  const r = await ctx.app.get(`/api/v1/compare?resource=weather&cities=${CORE.join(',')}`);
  assert.equal(r.status, 200);
  assert.equal(list(r.json, 'data').length, 28);
  assert.ok(
    list<{ source_status: string; cache_status: string }>(r.json, 'data').every((i) => i.source_status === 'ok' && i.cache_status === 'MISS'),
    'all 28 were cold fetches',
  );
  assert.equal(fake.count('/current_weather'), 28);
  assert.equal(peak, 28, 'one wave, not two');
});

test('overview with the air upstream hung: answered under the 3 s cap, air says timeout, weather is served', async () => {
  await ctx.app.get('/api/v1/cities/dresden/weather');
  fake.get(/^\/api\/air-data\/v3\//, { delayMs: 4000, body: '{}' });
  const started = performance.now();
  const r = await ctx.app.get('/api/v1/cities/dresden/overview');
  const elapsed = performance.now() - started;
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'data.highlights.air.source_status'), 'error');
  assert.equal(at(r.json, 'data.highlights.air.error'), 'timeout');
  assert.equal(at(r.json, 'data.highlights.weather.source_status'), 'ok');
  assert.equal(at(r.json, 'data.highlights.weather.cache_status'), 'HIT');
  assert.ok(fake.count('/api/air-data/v3/') >= 1, 'the air upstream was asked');
  assert.ok(elapsed < 3000, `answered in ${Math.round(elapsed)} ms, under the 3 s cap`);
});
