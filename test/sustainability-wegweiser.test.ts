import { at, str } from './helpers/json.ts';
import { nth } from './helpers/must.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { register as registerWegweiserSustainability } from './fixtures/wegweiser/routes.ts';
import { parseSdgIndicators } from '../src/sources/wegweiser/sustainability.ts';
import type { WegweiserStatistics } from '../src/sources/wegweiser/statistics.ts';

/** Wegweiser answers sustainability only as the fallback: INKAR off, the off-by-default source switched on. */
const ALT = { INKAR_ENABLED: 'false', WEGWEISER_SDG_ENABLED: 'true' };
const ctx = useFakeApp(registerWegweiserSustainability, { env: ALT });
const { fake } = ctx;
const DATA = '/data-api/rest/statistics/data/nachhaltigkeit+koeln';

test('parser: latest year with a value per indicator; all-null indicators stay with null', () => {
  const d = parseSdgIndicators(JSON.parse(fixture('wegweiser/statistics-data_nachhaltigkeit_koeln-constructed.json').toString()) as WegweiserStatistics);
  assert.deepEqual(d.region, { name: 'Köln', ags: '05315000', ars: '053150000000' });
  assert.deepEqual(d.indicators[0], {
    id: 'sgb-ii-xii-quote',
    label: 'SGB II-/SGB XII-Quote',
    unit: '%',
    value: 13.1,
    year: 2022,
    sdg_goal: null,
    level: null,
  });
  assert.equal(nth(d.indicators, 1).year, 2023);
  assert.deepEqual(d.indicators[3], {
    id: 'breitbandversorgung',
    label: 'Breitbandversorgung',
    unit: '%',
    value: null,
    year: null,
    sdg_goal: null,
    level: null,
  });
});

test('GET sustainability: the SDG indicators of the region found by AGS', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/sustainability');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.indicators.length'), 4);
  assert.equal(at(r.json, 'meta.indicators_with_value'), 3);
  assert.equal(at(r.json, 'meta.newest_year'), 2023);
  assert.match(str(r.json, 'attribution.text'), /Bertelsmann/);
  assert.equal(at(r.json, 'meta.answered_by'), 'wegweiser-kommune-sdg');
  assert.equal(at(r.json, 'meta.fallback_for'), 'inkar');
});

test('sustainability: a city Wegweiser does not list (no AGS match) is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/bonn/sustainability');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /05314000/);
});

test('sustainability: 404 for the topic at this level, and only null values, are no_data', async () => {
  fake.get(DATA, { status: 404, json: { message: 'not found' } });
  const fresh = await startApp({ ...fakeEnv(fake.url), ...ALT });
  try {
    const r = await fresh.get('/api/v1/cities/koeln/sustainability');
    assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  } finally {
    await fresh.close();
  }
  const body = JSON.parse(fixture('wegweiser/statistics-data_nachhaltigkeit_koeln-constructed.json').toString()) as WegweiserStatistics;
  for (const ind of body.data.indicators) ind.regionYearValues = [[null, null, null, null, null]];
  fake.get(DATA, { json: body });
  const again = await startApp({ ...fakeEnv(fake.url), ...ALT });
  try {
    const r = await again.get('/api/v1/cities/koeln/sustainability');
    assert.equal(at(r.json, 'meta.source_status'), 'no_data');
    assert.match(str(r.json, 'meta.reason'), /no SDG indicator has a value/);
  } finally {
    await again.close();
  }
});

test('sustainability: malformed bodies are a 503 problem, never a 500', async () => {
  for (const reply of [{ body: '<html>' }, { json: { data: {} } }]) {
    registerWegweiserSustainability(fake);
    fake.get(DATA, reply);
    const fresh = await startApp({ ...fakeEnv(fake.url), ...ALT });
    try {
      const r = await fresh.get('/api/v1/cities/koeln/sustainability');
      assert.equal(r.status, 503);
    } finally {
      await fresh.close();
    }
  }
});

test('sustainability: dead upstream is a 503 problem; off by default (unverified terms), so INKAR off means disabled', async () => {
  await expectUnavailable({ fake, env: ALT, path: '/api/v1/cities/koeln/sustainability' });
  await expectDisabled({ fake, env: { INKAR_ENABLED: 'false' }, path: '/api/v1/cities/koeln/sustainability', upstreamPrefix: '/data-api' });
  const off = await startApp({ ...fakeEnv(fake.url), INKAR_ENABLED: 'false' });
  try {
    const r = await off.get('/api/v1/cities/koeln/sustainability');
    assert.match(str(r.json, 'meta.disabled_reason'), /INKAR_ENABLED=false/);
  } finally {
    await off.close();
  }
});
