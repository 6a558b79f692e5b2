import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { at, list } from './helpers/json.ts';
import { register as registerOparl } from './fixtures/oparl/routes.ts';
import { OPARL } from '../src/sources/oparl/source.ts';
import { DEFAULT_BREAKER, shownHost } from '../src/pipeline/breakers.ts';
import { buildCatalog, CATALOG } from '../src/catalog/index.ts';
import { withSources } from './helpers/swap-sources.ts';
import type { SourceDecl } from '../src/core/source.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One breaker per upstream host: Köln's and Düsseldorf's council portals are two fake hosts
 * (two ports) behind the one `oparl` source. Köln's answers 5xx until its breaker opens;
 * Düsseldorf's keeps answering and its breaker stays closed.
 */
const koeln = new FakeUpstream();
const duesseldorf = new FakeUpstream();
let app: TestApp;

type HostRow = { host: string; state: string; opened_at: string | null; failures: number };
type SourceRow = { source: string; breaker_state: string; breakers: HostRow[] };

before(async () => {
  await koeln.start();
  await duesseldorf.start();
  koeln.get('/oparl/system', { status: 500, body: 'internal error' });
  // Düsseldorf's portal serves the recorded ALLRIS system (Leipzig's payloads) at its own system path.
  registerOparl(duesseldorf);
  duesseldorf.get('/Oparl/system', { file: 'oparl/system_leipzig_allris_1.0.json' });
  app = await startApp({
    ...fakeEnv(koeln.url),
    OPARL_KOELN_SYSTEM_URL: `${koeln.url}/oparl/system`,
    OPARL_DUESSELDORF_SYSTEM_URL: `${duesseldorf.url}/Oparl/system`,
  });
});
after(async () => {
  await app.close();
  await koeln.stop();
  await duesseldorf.stop();
});

/**
 * How /sources and /health name the two loopback hosts: an address is never shown, a host is `host N` in the order
 * of the source's configured URLs (the base URL, which fakeEnv puts on Köln's fake, then Düsseldorf's portal).
 */
const hostOf = (f: FakeUpstream) => (f === koeln ? 'host 1' : 'host 2');

async function oparlRow(): Promise<SourceRow> {
  const rows = list<SourceRow>((await app.get('/api/v1/sources?limit=all')).json, 'data');
  const row = rows.find((s) => s.source === OPARL.id);
  assert.ok(row);
  return row;
}

test('a failing Köln portal opens its host’s breaker only: Düsseldorf answers ok, /sources and /health tell the hosts apart', async () => {
  const threshold = OPARL.breaker?.threshold ?? DEFAULT_BREAKER.threshold;
  for (let i = 0; i < threshold; i++) assert.equal((await app.get('/api/v1/cities/koeln/council-papers')).status, 503);
  assert.equal(koeln.count('/oparl/system'), threshold, 'each failed fetch reached Köln once');

  // Open: Köln's portal is not called again, Düsseldorf's still is.
  const refused = await app.get('/api/v1/cities/koeln/council-papers');
  assert.equal(refused.status, 503);
  assert.equal(at(refused.json, 'code'), 'upstream_unavailable');
  assert.equal(koeln.count('/oparl/system'), threshold, 'an open breaker makes no call');
  const ok = await app.get('/api/v1/cities/duesseldorf/council-papers');
  assert.equal(ok.status, 200);
  assert.equal(at(ok.json, 'meta.source_status'), 'ok');
  assert.equal(duesseldorf.count('/Oparl/system'), 1);

  const row = await oparlRow();
  const byHost = new Map(row.breakers.map((b) => [b.host, b]));
  assert.equal(byHost.get(hostOf(koeln))?.state, 'OPEN');
  assert.ok(byHost.get(hostOf(koeln))?.opened_at);
  assert.equal(byHost.get(hostOf(koeln))?.failures, threshold);
  assert.equal(byHost.get(hostOf(duesseldorf))?.state, 'CLOSED');
  assert.equal(byHost.get(hostOf(duesseldorf))?.opened_at, null);
  assert.equal(byHost.get(hostOf(duesseldorf))?.failures, 0);
  assert.equal(row.breaker_state, 'OPEN', 'the source shows its worst host');

  const health = (await app.get('/api/v1/health')).json;
  assert.deepEqual(at(health, 'data.sources.open_hosts'), [{ source: OPARL.id, host: hostOf(koeln) }]);
  assert.deepEqual(at(health, 'data.sources.open_breakers'), [OPARL.id]);
});

test('after its cool-down the Köln host gets one trial call; once it answers, its breaker closes and Köln is served', async () => {
  const quick: SourceDecl = { ...OPARL, breaker: { threshold: 2, cooldownSeconds: 1 } };
  const papers = withSources(CATALOG.byType.get('council-papers')!, (s) => (s.id === OPARL.id ? quick : s));
  const own = await startApp(
    { ...fakeEnv(koeln.url), OPARL_KOELN_SYSTEM_URL: `${koeln.url}/oparl/system`, OPARL_DUESSELDORF_SYSTEM_URL: `${duesseldorf.url}/Oparl/system` },
    { catalog: buildCatalog([papers]), sources: CATALOG.sources.map((s) => (s.id === OPARL.id ? quick : s)) },
  );
  try {
    koeln.get('/oparl/system', { status: 500, body: 'internal error' });
    const before = koeln.count('/oparl/system');
    for (let i = 0; i < 2; i++) assert.equal((await own.get('/api/v1/cities/koeln/council-papers')).status, 503);
    assert.equal((await own.get('/api/v1/cities/koeln/council-papers')).status, 503);
    assert.equal(koeln.count('/oparl/system') - before, 2, 'open after two failures');
    await sleep(1100);
    // Köln's portal is back: it serves the recorded ALLRIS system like Düsseldorf's.
    registerOparl(koeln);
    koeln.get('/oparl/system', { file: 'oparl/system_leipzig_allris_1.0.json' });
    const ok = await own.get('/api/v1/cities/koeln/council-papers');
    assert.equal(ok.status, 200);
    assert.equal(koeln.count('/oparl/system') - before, 3, 'one trial call');
    const row = list<SourceRow>((await own.get('/api/v1/sources?limit=all')).json, 'data').find((s) => s.source === OPARL.id);
    assert.equal(row?.breakers.find((b) => b.host === hostOf(koeln))?.state, 'CLOSED');
    assert.equal(row?.breaker_state, 'CLOSED');
  } finally {
    await own.close();
  }
});

test('a host is shown by its public name without port; an address, localhost or an internal name never', () => {
  assert.equal(shownHost('www.pegelonline.wsv.de', 0), 'www.pegelonline.wsv.de');
  assert.equal(shownHost('api.example.org:8443', 0), 'api.example.org');
  assert.equal(shownHost('127.0.0.1:45303', 1), 'host 2');
  assert.equal(shownHost('[::1]:8080', 0), 'host 1');
  assert.equal(shownHost('localhost:3000', 2), 'host 3');
  assert.equal(shownHost('mirror', 0), 'host 1');
  assert.equal(shownHost('oparl.corp.internal', 0), 'host 1');
});
