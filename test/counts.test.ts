import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useFakeApp } from './helpers/setup.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { CITIES } from '../src/cities/register.ts';
import { VERSION } from '../src/core/version.ts';
import { at, list } from './helpers/json.ts';

const ctx = useFakeApp(registerBrightSky);

test('counts: health, coverage, overview and README show the one count computed from the catalog', async () => {
  const { counts } = CATALOG;
  assert.equal(counts.data_types, CATALOG.all.length);
  assert.equal(counts.per_city + counts.global, counts.data_types);
  assert.equal(counts.cities, CITIES.length);
  const health = await ctx.app.get('/api/v1/health');
  assert.deepEqual(at(health.json, 'data.data_types'), counts);
  const coverage = await ctx.app.get('/api/v1/coverage');
  assert.equal(at(coverage.json, 'meta.catalog'), counts.text);
  assert.equal(at(coverage.json, 'meta.data_types'), counts.per_city);
  assert.equal(list(coverage.json, 'data').length, counts.per_city);
  const overview = await ctx.app.get('/api/v1/cities/koeln/overview');
  assert.equal(at(overview.json, 'data.summary.catalog'), counts.text);
  assert.equal(at(overview.json, 'data.summary.data_types_total'), counts.per_city);
  assert.equal(list(overview.json, 'data.data_types').length, counts.per_city);
  const page = await ctx.app.get('/coverage');
  assert.ok(page.text.includes(counts.text), 'the coverage page states the count');
  assert.ok(readFileSync(new URL('../README.md', import.meta.url), 'utf8').includes(counts.text), 'README states the count (npm run env-docs)');
});

test('version: one constant, equal to package.json, shown by health and OpenAPI', async () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
  assert.equal(at((await ctx.app.get('/api/v1/health')).json, 'data.version'), VERSION);
  assert.equal(at((await ctx.app.get('/api/v1/openapi.json')).json, 'info.version'), VERSION);
});
