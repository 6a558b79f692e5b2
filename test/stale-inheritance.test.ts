import { at, list, str } from './helpers/json.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream, fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerStada } from './fixtures/stada/routes.ts';
import { eventually } from './helpers/wait.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { encodeEntry } from '../src/pipeline/cache.ts';
import { parseStationPage, type StadaPage } from '../src/sources/stada/stations.ts';
import { toBerlinIso } from '../src/core/time.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import { withSources } from './helpers/swap-sources.ts';
import type { SourceDecl } from '../src/core/source.ts';

/**
 * Stations are cut from one shared national list (FetchContext.cached). When that list can only
 * be served stale, because StaDa fails, an entry built from it is as old as the list and says so:
 * never a MISS or HIT with a new fetched_at.
 */
const CREDS = { DB_CLIENT_ID: 'client-id', DB_API_KEY: 'api-key' };
// The list's failed refreshes count against StaDa's host breaker; a short cool-down lets the recovery fit the test.
const quick = (s: SourceDecl): SourceDecl => (s.id === 'db-stada' ? { ...s, breaker: { threshold: 5, cooldownSeconds: 1 } } : s);
const catalog = buildCatalog([withSources(CATALOG.byType.get('stations')!, quick)]);
const sources = CATALOG.sources.map(quick);
let fake: FakeUpstream;
before(async () => {
  fake = await new FakeUpstream().start();
  registerStada(fake);
});
after(async () => {
  await fake.stop();
});

test('a type built from a stale shared value carries its fetched_at and turns STALE-ON-ERROR, never HIT/MISS', async () => {
  const store = new SqliteStore(':memory:');
  // The shared national list, fetched two days ago: past its fresh day, inside its stale month.
  const listAt = Date.now() - 2 * 86_400_000;
  const stations = parseStationPage(JSON.parse(fixture('stada/stations_v2_marketplace.json').toString('utf8')) as StadaPage).stations;
  await store.set(
    'cache:shared:db-stada:all-stations',
    encodeEntry({ fetchedAt: listAt, status: 'ok', asOf: null, meta: {}, dataJson: JSON.stringify(stations) }),
    40 * 86_400_000,
  );
  fake.mode = 'error';
  const app = await startApp({ ...fakeEnv(fake.url), ...CREDS }, { store, catalog, sources });
  try {
    const first = await app.get('/api/v1/cities/koeln/stations');
    assert.equal(first.status, 200);
    assert.ok(list(first.json, 'data').length > 0);
    assert.notEqual(at(first.json, 'meta.cache_status'), 'MISS');
    assert.notEqual(at(first.json, 'meta.cache_status'), 'HIT');
    assert.equal(at(first.json, 'meta.fetched_at'), toBerlinIso(listAt), 'as old as the list it was cut from');

    // The list's background refresh fails: every city cut from it now says STALE-ON-ERROR.
    assert.ok(await eventually(() => fake.count('/db-api-marketplace/apis/station-data') >= 1));
    for (const city of ['koeln', 'berlin', 'muenchen']) {
      let r = await app.get(`/api/v1/cities/${city}/stations`);
      assert.ok(
        await eventually(async () => at((r = await app.get(`/api/v1/cities/${city}/stations`)).json, 'meta.cache_status') === 'STALE-ON-ERROR'),
        `${city}: ${at(r.json, 'meta.cache_status')}`,
      );
      assert.equal(at(r.json, 'meta.fetched_at'), toBerlinIso(listAt), city);
      for (let i = 0; i < 3; i++) {
        const again = await app.get(`/api/v1/cities/${city}/stations`);
        assert.ok(!['HIT', 'MISS'].includes(str(again.json, 'meta.cache_status')), `${city}: ${at(again.json, 'meta.cache_status')}`);
        assert.equal(at(again.json, 'meta.fetched_at'), toBerlinIso(listAt), city);
      }
    }

    // StaDa answers again: after its breaker's cool-down a fresh list, and fresh entries with their own time.
    fake.mode = 'normal';
    let ok = await app.get('/api/v1/cities/koeln/stations');
    assert.ok(await eventually(async () => at((ok = await app.get('/api/v1/cities/koeln/stations')).json, 'meta.fetched_at') !== toBerlinIso(listAt)));
    assert.ok(['MISS', 'HIT', 'STALE'].includes(str(ok.json, 'meta.cache_status')));
  } finally {
    await app.close();
  }
});
