import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { fixture, type Reply } from './helpers/fake-upstream.ts';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, get, startApp } from './helpers/app.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { at, list, obj } from './helpers/json.ts';
import { buildApp } from '../src/app.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import { loadConfig } from '../src/core/config.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { DriftLedger, DRIFT_LOG_INTERVAL_MS } from '../src/pipeline/format-drift.ts';
import { runScheduled } from '../src/jobs/scheduler.ts';
import { solarRoofsPrecompute } from '../src/jobs/solar-roofs-precompute.ts';
import { eventually } from './helpers/wait.ts';
import { privateStores } from './helpers/stores.ts';

/**
 * Format drift in production: an answer the adapter or the record schema rejects marks its source
 * in /api/v1/sources, health and a counter, and a cached value goes on being served as
 * STALE-ON-ERROR. The weather type here refetches on every request (no fresh or stale window), so
 * each request meets the upstream's current answer.
 */
const weather = CATALOG.byType.get('weather')!;
const warnings = CATALOG.byType.get('weather-warnings')!;
const catalog = buildCatalog([{ ...weather, cache: { freshSeconds: 0, staleSeconds: 0 } }, warnings]);
const fake = useFakeUpstream(registerBrightSky);
const PATH = '/api/v1/cities/freiburg-im-breisgau/weather';

function latAsText(): Reply {
  const b = JSON.parse(fixture('brightsky/current_weather-feldberg-2022-07-24.json').toString()) as { sources: { lat: unknown }[] };
  b.sources[0]!.lat = String(b.sources[0]!.lat);
  return { json: b };
}

const sourceRow = async (app: { get: typeof get }, id: string) =>
  list<{ source: string; format_drift: unknown; last_error: string | null }>((await app.get('/api/v1/sources?limit=all')).json, 'data').find(
    (s) => s.source === id,
  )!;

test('format drift: marked in /sources, health and a counter; the cached value is served STALE-ON-ERROR until answers match again', async () => {
  const app = await startApp({ ...fakeEnv(fake.url), METRICS_PUBLIC: 'true' }, { catalog });
  try {
    assert.equal(at((await app.get(PATH)).json, 'meta.cache_status'), 'MISS');
    assert.equal((await sourceRow(app, 'dwd-brightsky')).format_drift, null);

    fake.get('/current_weather', latAsText());
    const served = await app.get(PATH);
    assert.equal(served.status, 200);
    assert.equal(at(served.json, 'meta.cache_status'), 'STALE-ON-ERROR');
    assert.equal(at(served.json, 'meta.source_status'), 'ok');
    assert.equal(at(served.json, 'data.station.lat'), 47.8749, 'the value cached before the change');
    await app.get(PATH);

    const row = await sourceRow(app, 'dwd-brightsky');
    const drift = obj(row, 'format_drift');
    assert.equal(drift.first_error, 'Bright Sky current_weather $.sources[0].lat: expected number, received string');
    assert.match(String(drift.since), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/);
    assert.equal(drift.count, 2);
    assert.deepEqual(drift.types, ['weather']);
    assert.match(row.last_error ?? '', /^format drift: Bright Sky current_weather \$\.sources\[0\]\.lat/);
    assert.deepEqual(at((await app.get('/api/v1/health')).json, 'data.sources.format_drift'), ['dwd-brightsky']);
    assert.match((await app.get('/metrics')).text, /^stadtdaten_format_drift_total\{source="dwd-brightsky"\} 2$/m);

    registerBrightSky(fake);
    assert.equal(at((await app.get(PATH)).json, 'meta.cache_status'), 'MISS');
    assert.equal((await sourceRow(app, 'dwd-brightsky')).format_drift, null, 'a valid answer of every drifting type ends the drift');
    assert.deepEqual(at((await app.get('/api/v1/health')).json, 'data.sources.format_drift'), []);
  } finally {
    await app.close();
  }
});

test('format drift: an HTML page served with 200 and nothing cached is a 503 and a drift; an error status is a failure, not a drift', async () => {
  const app = await startApp(fakeEnv(fake.url), { catalog });
  try {
    fake.get('/current_weather', { headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><title>Wartung</title>' });
    const r = await app.get(PATH);
    assert.equal(r.status, 503);
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    assert.match(String(at(await sourceRow(app, 'dwd-brightsky'), 'format_drift.first_error')), /^unparseable JSON from dwd-brightsky$/);

    fake.get('/alerts', { status: 503, body: 'down' });
    assert.equal((await app.get('/api/v1/cities/braunschweig/weather-warnings')).status, 503);
    const alerts = await sourceRow(app, 'dwd-warnings-brightsky');
    assert.equal(alerts.format_drift, null);
    assert.match(alerts.last_error ?? '', /503/);
  } finally {
    await app.close();
  }
});

test('format drift: one log line per source, not one per request', async () => {
  const lines: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
  const config = loadConfig(
    { ...fakeEnv(fake.url), ...privateStores(), LOG_LEVEL: 'warn', JOBS_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
    CATALOG.sources,
  );
  const built = await buildApp(config, { store: new SqliteStore(':memory:'), catalog, logStream });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  try {
    fake.get('/current_weather', latAsText());
    for (let i = 0; i < 4; i++) assert.equal((await get(url + PATH)).status, 503);
    const drift = lines.filter((l) => l.includes('format drift'));
    assert.equal(drift.length, 1, lines.join('\n'));
    assert.match(drift[0]!, /"source":"dwd-brightsky"/);
    assert.ok(!lines.some((l) => l.includes('nothing is cached')), 'no per-request line for a drifting source');
  } finally {
    await built.close();
  }
});

test('format drift: a job whose parser rejects its download marks the source of the stored types it writes', async () => {
  const app = await startApp(fakeEnv(fake.url));
  fake.get(/^\/fme_processed\/solar\/gem\/\d{4}\/\d{4}\.json$/, { headers: { 'content-type': 'text/html' }, body: '<html>Wartung</html>' });
  const job = runScheduled(app.rt, { ...solarRoofsPrecompute, initialDelayMs: 0 });
  try {
    assert.ok(await eventually(async () => (await sourceRow(app, 'energieatlas-nrw')).format_drift !== null));
    const drift = obj(await sourceRow(app, 'energieatlas-nrw'), 'format_drift');
    assert.match(String(drift.first_error), /^Energieatlas NRW \d{4}\.json is not JSON$/);
    assert.deepEqual(drift.types, ['solar-roofs']);
  } finally {
    await job.stop();
    await app.close();
  }
});

test('format drift: a drifting source is logged again after an hour, and stays marked until each of its types recovered', () => {
  let now = 0;
  const ledger = new DriftLedger(() => now);
  assert.equal(ledger.record('smard', 'power-load', 'record schema: x'), true);
  assert.equal(ledger.record('smard', 'power-price', 'record schema: y'), false);
  now = DRIFT_LOG_INTERVAL_MS - 1;
  assert.equal(ledger.record('smard', 'power-load', 'record schema: z'), false);
  now = DRIFT_LOG_INTERVAL_MS;
  assert.equal(ledger.record('smard', 'power-load', 'record schema: z'), true);
  assert.equal(ledger.view('smard')?.first_error, 'record schema: x');
  assert.equal(ledger.recovered('smard', 'power-load'), false, 'power-price still drifts');
  assert.equal(ledger.recovered('smard', 'power-price'), true);
  assert.equal(ledger.view('smard'), null);
});
