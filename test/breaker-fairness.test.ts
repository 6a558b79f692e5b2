import { at, str } from './helpers/json.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeUpstream } from './helpers/setup.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { register as registerDbTimetables } from './fixtures/db-timetables/routes.ts';
import { register as registerStada } from './fixtures/stada/routes.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { buildCatalog } from '../src/catalog/index.ts';
import { CATALOG } from '../src/catalog/index.ts';

const weather = CATALOG.byType.get('weather')!;
import { BRIGHTSKY } from '../src/sources/brightsky/source.ts';
import type { DataType } from '../src/core/data-type.ts';
import { withSources } from './helpers/swap-sources.ts';
import type { SourceDecl } from '../src/core/source.ts';

/** Breakers open for upstream faults only: one client's traffic or bad input must not shut a source for everyone. */
const CREDS = { DB_CLIENT_ID: 'client-id', DB_API_KEY: 'api-key' };
const fake = useFakeUpstream((f) => {
  registerDbTimetables(f);
  registerStada(f);
  registerBrightSky(f);
});

type SourceRow = { source: string; breaker_state: string; last_error: string | null };
async function sourceRow(app: TestApp, id: string): Promise<SourceRow> {
  const r = await app.get('/api/v1/sources?limit=200');
  const row = (at(r.json, 'data') as SourceRow[]).find((s) => s.source === id);
  assert.ok(row, id);
  return row;
}

test('30 distinct station boards: the ones over DB’s 60 calls/minute get 503 + Retry-After, the breaker stays closed', async () => {
  // The call budget is per clock minute: start well inside one, so the 30 boards share it.
  const into = Date.now() % 60_000;
  if (into > 45_000) await new Promise((r) => setTimeout(r, 60_000 - into + 100));
  const app = await startApp({ ...fakeEnv(fake.url), ...CREDS, REQUEST_BUDGET_MS: '1000' });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await app.get(`/api/v1/stations/80002${String(i).padStart(2, '0')}/departures`);
      statuses.push(r.status);
      if (r.status === 503) {
        assert.equal(at(r.json, 'code'), 'upstream_unavailable');
        const wait = Number(r.headers.get('retry-after'));
        assert.ok(wait >= 1 && wait <= 61, `Retry-After ${wait}`);
        assert.match(str(r.json, 'detail'), /call budget/);
      }
    }
    assert.equal(statuses.filter((s) => s === 200).length, 20, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 503).length, 10, statuses.join(','));
    assert.ok(fake.count('/db-api-marketplace/apis/timetables') <= 60, 'never more calls than the budget');
    const row = await sourceRow(app, 'db-timetables');
    assert.equal(row.breaker_state, 'CLOSED');
    assert.equal(row.last_error, null, 'our own refusals are not upstream failures');
    // A board already fetched is still served to everyone.
    const cached = await app.get('/api/v1/stations/8000200/departures');
    assert.equal(cached.status, 200);
    assert.equal(at(cached.json, 'meta.cache_status'), 'HIT');
  } finally {
    await app.close();
  }
});

const quick: SourceDecl = { ...BRIGHTSKY, breaker: { threshold: 3, cooldownSeconds: 60 }, timeoutMs: 1500 };
const quickWeather: DataType = withSources(weather, (s) => (s.id === BRIGHTSKY.id ? quick : s));
const sources = CATALOG.sources.map((s) => (s.id === BRIGHTSKY.id ? quick : s));

test('upstream 4xx to user input never count; 5xx do, and last_error says why the breaker opened', async () => {
  const app = await startApp(fakeEnv(fake.url), { catalog: buildCatalog([quickWeather]), sources });
  try {
    // Bright Sky answers a request it cannot take (e.g. coordinates out of range) with 400.
    fake.get('/current_weather', { status: 400, json: { detail: 'Please supply lat/lon or dwd_station_id or wmo_station_id' } });
    const cities = ['bonn', 'koeln', 'aachen', 'essen', 'bochum', 'dortmund'];
    for (const c of cities) assert.equal((await app.get(`/api/v1/cities/${c}/weather`)).status, 503, c);
    assert.equal(fake.count('/current_weather'), 6, 'every request reached the upstream (no breaker in between)');
    let row = await sourceRow(app, BRIGHTSKY.id);
    assert.equal(row.breaker_state, 'CLOSED', 'six 400s did not open a breaker of threshold 3');

    fake.mode = 'error';
    for (const c of cities.slice(0, 3)) await app.get(`/api/v1/cities/${c}/weather`);
    row = await sourceRow(app, BRIGHTSKY.id);
    assert.equal(row.breaker_state, 'OPEN');
    assert.match(row.last_error ?? '', /circuit opened for 60 s after 3 consecutive upstream failures; last: upstream answered 503/);
  } finally {
    await app.close();
  }
});
