import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerBa } from './fixtures/ba/routes.ts';
import { parseEckwerte, parseKreisList } from '../src/sources/ba/eckwerte.ts';
import { parseNumber } from '../src/core/numbers.ts';
import { at, str } from './helpers/json.ts';

const ctx = useFakeApp(registerBa);
const { fake } = ctx;

test('parser: Eckwerte CSV, German numbers, duplicate labels by position', () => {
  const d = parseEckwerte(fixture('ba/EckwerteTabelleALOKr_koeln.csv').toString('utf8'));
  assert.equal(d.region_name, 'Köln, Stadt');
  assert.equal(d.reference_month, '2026-02');
  assert.equal(d.unemployed, 55310);
  assert.equal(d.unemployment_rate_pct, 9.3);
  assert.equal(d.unemployed_sgb2, 40190);
  assert.equal(d.unemployment_rate_sgb2_pct, 6.7);
  assert.equal(d.unemployed_sgb3, 15120);
  assert.deepEqual(d.previous_month, { month: '2026-01', unemployed: 55020, unemployment_rate_pct: 9.2 });
  assert.equal(d.year_ago.month, '2025-02');
  assert.equal(d.change_year_on_year, 2830);
  assert.equal(parseNumber('-'), null);
  assert.throws(() => parseEckwerte('Kreis:; X\nnothing here'));
});

test('parser: Kreis list from the BA config script', () => {
  const list = parseKreisList(fixture('ba/DR-LZR-persistListenfelderJSON.js').toString('utf8'));
  assert.deepEqual(
    list.find((k) => k.key === '05315'),
    { key: '05315', name: 'Köln, Stadt' },
  );
  assert.ok(list.some((k) => k.key === '11000'));
});

test('GET unemployment: ok, table queried with the BA Kreis name mapped from the AGS', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/unemployment');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.unemployed'), 55310);
  assert.equal(at(r.json, 'data.kreis_key'), '05315');
  assert.equal(at(r.json, 'attribution.text'), 'Statistik der Bundesagentur für Arbeit');
  const call = fake.requests.find((q) => q.url.includes('EckwerteTabelleALOKr'))!;
  assert.equal(new URL(call.url, 'http://x').searchParams.get('Kreis'), 'Köln, Stadt');
});

test('unemployment: city inside a Kreis is no_data, never the Kreis value', async () => {
  const r = await ctx.app.get('/api/v1/cities/aachen/unemployment');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(fake.count('/bifrontend'), 0);
});

test('unemployment: Kreis missing from the BA list is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/dresden/unemployment');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /14612/);
});

test('unemployment: a Kreis name the table API answers 404 for is no_data, never another Kreis', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/unemployment');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /no EckwerteTabelleALOKr table for Kreis "Berlin"/);
});

test('unemployment: unknown city 404, dead upstream 503', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/unemployment');
  await expectUnavailable({ fake, path: '/api/v1/cities/berlin/unemployment', mode: 'error' });
});

test('unemployment: toggle off is disabled', async () => {
  await expectDisabled({ fake, env: { BA_STATISTIK_ENABLED: 'false' }, path: '/api/v1/cities/koeln/unemployment' });
});
