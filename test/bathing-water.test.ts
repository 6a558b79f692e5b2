import { at, list, str } from './helpers/json.ts';
import { must } from './helpers/must.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { DK_RECORDING, DK_WHERE, register as registerEeaBathing } from './fixtures/eea-bathing/routes.ts';
import { classificationLayer, newestSeasonService, queryPage, type FolderBody, type LayersBody, type QueryBody } from '../src/sources/eea-bathing/parse.ts';

const ctx = useFakeApp(registerEeaBathing);
const { fake } = ctx;
const BASE = '/arcgis/rest/services/BathingWater';
const QUERY = `${BASE}/BathingWater_Dyna_WM_2025/MapServer/3/query`;

test('parser: the newest season service is found, not hard-coded; the layer is the one with the classification fields', () => {
  const folder = JSON.parse(fixture('eea-bathing/folder-BathingWater-constructed.json').toString()) as FolderBody;
  assert.deepEqual(newestSeasonService(folder), { name: 'BathingWater/BathingWater_Dyna_WM_2025', season: 2025 });
  assert.deepEqual(newestSeasonService({ services: [{ name: 'BathingWater/BathingWater_Dyna_WM', type: 'MapServer' }] }), {
    name: 'BathingWater/BathingWater_Dyna_WM',
    season: null,
  });
  assert.throws(() => newestSeasonService({ services: [] }), /no BathingWater_Dyna_WM/);
  assert.equal(classificationLayer(JSON.parse(fixture('eea-bathing/layers-2025-constructed.json').toString()) as LayersBody), 3);
  assert.throws(() => queryPage({ error: { code: 400, message: 'Invalid query' } }), /Invalid query/);
});

test('recording: the real layer-3 answer (Denmark, 2025 season) parses; its envelope members and float noise are taken as they are', () => {
  const body = JSON.parse(fixture(DK_RECORDING).toString()) as QueryBody & { fields?: unknown[] };
  // The real answer describes its fields and carries no objectIdFieldName or exceededTransferLimit when it is complete.
  assert.equal(body.fields?.length, 9);
  const { rows, more } = queryPage(body);
  assert.equal(more, false);
  assert.equal(rows.length, 12);
  assert.deepEqual(rows[0], {
    bathingWaterName: 'FLÆNG SØ',
    bwWaterCategory: 'Lake',
    longitude: 12.0253,
    latitude: 55.62752,
    qualityStatus: 'Excellent',
    qualityStatus_minus1: 'Excellent',
    qualityStatus_minus2: 'Excellent',
    bathingWaterIdentifier: 'DKBW1895',
    bwProfileLink: 'https://b0301proddatasto.blob.core.windows.net/files/p5tblvyf.pdf',
  });
  const holbaek = must(rows.find((r) => r.bathingWaterIdentifier === 'DKBW1141'));
  assert.equal(holbaek.qualityStatus, 'Good');
  assert.equal(holbaek.qualityStatus_minus1, 'Sufficient');
});

test('recording: served only for its own where clause; a German city given it lists no Danish site', async () => {
  const own = await fetch(`${fake.url}${QUERY}?${new URLSearchParams({ where: DK_WHERE, f: 'json' })}`);
  assert.equal(queryPage((await own.json()) as QueryBody).rows.length, 12);
  // Served in Berlin's place, the real envelope goes through the adapter; every site lies outside the radius.
  fake.get(QUERY, { file: DK_RECORDING, headers: { 'content-type': 'application/json; charset=utf-8' } });
  const r = await ctx.freshGet('/api/v1/cities/berlin/bathing-water?radius_km=50');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /no EU bathing site within 50 km/);
});

test('GET bathing-water: every site within the radius over all pages, nearest first, class and profile link', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/bathing-water');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.season'), 2025);
  assert.equal(at(r.json, 'meta.radius_km'), 25);
  assert.equal(at(r.json, 'meta.layer_discovered'), true);
  assert.equal(at(r.json, 'data.length'), 5);
  assert.deepEqual(
    list<{ name: string }>(r.json, 'data').map((s) => s.name),
    ['Strandbad Plötzensee', 'Strandbad Jungfernheide', 'Strandbad Lübars', 'Strandbad Wannsee', 'Strandbad Müggelsee'],
  );
  const sites = list<{ id: string; quality: string; quality_de: string; profile_url: string }>(r.json, 'data');
  const wannsee = must(sites.find((s) => s.id === 'DEBE_PR_0001'));
  assert.equal(wannsee.quality, 'Excellent');
  assert.equal(wannsee.quality_de, 'ausgezeichnet');
  assert.match(wannsee.profile_url, /^https:\/\//);
  assert.equal(must(sites.find((s) => s.id === 'DEBE_PR_0004')).quality, 'Not classified');
  // Five sites at three per answer: two pages, the second from offset 3.
  const offsets = fake.requests.filter((x) => x.url.startsWith(QUERY)).map((x) => new URL(x.url, 'http://x').searchParams.get('resultOffset'));
  assert.deepEqual(offsets, ['0', '3']);
  assert.match(str(r.json, 'attribution.text'), /European Environment Agency/);
});

test('bathing-water: a smaller radius keeps only the sites within it; bad radius is a 422', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/bathing-water?radius_km=12');
  assert.equal(at(r.json, 'meta.radius_km'), 12);
  assert.ok(list<{ distance_km: number }>(r.json, 'data').every((s) => s.distance_km <= 12));
  assert.ok(list(r.json, 'data').length < 5);
  const bad = await ctx.app.get('/api/v1/cities/berlin/bathing-water?radius_km=abc');
  assert.equal(bad.status, 422);
});

test('bathing-water: an inland city without a site in reach is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/kassel/bathing-water');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /no EU bathing site within 25 km/);
});

test('bathing-water: a directory without a season service (or unreachable) falls back to the configured layer', async () => {
  for (const broken of [
    () => fake.get(BASE, { json: { services: [{ name: 'Other/Service', type: 'MapServer' }] } }),
    () => fake.get(BASE, { status: 404, body: 'Not Found' }),
  ]) {
    registerEeaBathing(fake);
    broken();
    const fresh = await startApp(fakeEnv(fake.url));
    try {
      const r = await fresh.get('/api/v1/cities/berlin/bathing-water');
      assert.equal(at(r.json, 'meta.source_status'), 'ok');
      assert.equal(at(r.json, 'meta.layer_discovered'), false);
      assert.equal(at(r.json, 'meta.season'), 2025);
      assert.equal(at(r.json, 'data.length'), 5);
    } finally {
      await fresh.close();
    }
  }
});

test('bathing-water: malformed query answers (error object, garbage) are a 503 problem', async () => {
  for (const broken of [
    () => fake.get(QUERY, { json: { error: { code: 400, message: 'Unable to complete operation.' } } }),
    () => fake.get(QUERY, { body: '<html>' }),
  ]) {
    registerEeaBathing(fake);
    broken();
    const fresh = await startApp(fakeEnv(fake.url));
    try {
      const r = await fresh.get('/api/v1/cities/berlin/bathing-water');
      assert.equal(r.status, 503);
      assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    } finally {
      await fresh.close();
    }
  }
});

test('bathing-water: dead upstream with nothing cached is a 503 problem', async () => {
  await expectUnavailable({ fake, path: '/api/v1/cities/berlin/bathing-water' });
});

test('bathing-water: EEA_BATHING_ENABLED=false is disabled', async () => {
  await expectDisabled({ fake, env: { EEA_BATHING_ENABLED: 'false' }, path: '/api/v1/cities/berlin/bathing-water', upstreamPrefix: BASE });
});
