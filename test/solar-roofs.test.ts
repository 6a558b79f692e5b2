import { at, str } from './helpers/json.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled } from './helpers/status-rules.ts';
import { register as registerEnergieatlasNrw } from './fixtures/energieatlas-nrw/routes.ts';
import { parseInBetrieb, type InBetriebBody } from '../src/sources/energieatlas-nrw/parse.ts';
import { precomputeSolarRoofs } from '../src/jobs/solar-roofs-precompute.ts';
import { SOLAR_ROOFS_CITIES } from '../src/sources/energieatlas-nrw/stored.ts';
import { MASTR_PATH, register as registerMastr } from './fixtures/mastr/routes.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { coveredCities } from '../src/core/data-type.ts';
import { CITIES } from '../src/cities/register.ts';

const ctx = useFakeApp((f) => {
  registerEnergieatlasNrw(f);
  registerMastr(f);
});
const { fake } = ctx;
const BASE = '/fme_processed/solar/gem';

test('parser: the real Energieatlas row: anzahl as string or number, stand as YYYYMMDD integer', () => {
  const rows = parseInBetrieb(JSON.parse(fixture('energieatlas-nrw/gem-2016-excerpt-wuppertal.json').toString()) as InBetriebBody, 2016);
  const w = rows.get('05124000')!;
  assert.equal(w.municipality, 'Wuppertal');
  assert.equal(w.stand, '2026-04-08');
  assert.equal(w.data_basis, 'BNA, MaStR, LANUK, MaStR');
  assert.deepEqual(w.rooftop, { installations: 76, capacity_mw: 1.1655, yield_gwh: 0.4354 });
  assert.deepEqual(w.ground_mounted, { installations: 1, capacity_mw: 0.0983, yield_gwh: 0.059 });
  assert.deepEqual(w.plug_in, { installations: 0, capacity_mw: 0, yield_gwh: 0 });
  assert.equal(w.total?.installations, 77);
});

test('coverage: the cities of Nordrhein-Westfalen', () => {
  assert.ok(SOLAR_ROOFS_CITIES.includes('wuppertal'));
  assert.ok(SOLAR_ROOFS_CITIES.includes('koeln'));
  assert.ok(!SOLAR_ROOFS_CITIES.includes('muenchen'));
});

test('solar-roofs: no_data before the precompute; after it the newest year file, walked back from the current year', async () => {
  const before = await ctx.app.get('/api/v1/cities/wuppertal/solar-roofs');
  assert.equal(before.status, 200);
  assert.equal(at(before.json, 'meta.source_status'), 'no_data');
  const res = await precomputeSolarRoofs(ctx.app.rt, () => {}, new Date('2026-11-25T12:00:00Z'));
  assert.deepEqual(res, { year: 2016, cities: 1 });
  assert.equal(fake.count(`${BASE}/2026/2026.json`), 1);
  const r = await ctx.app.get('/api/v1/cities/wuppertal/solar-roofs');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.ags'), '05124000');
  assert.equal(at(r.json, 'data.year'), 2016);
  assert.equal(at(r.json, 'data.total.capacity_mw'), 1.2638);
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/zero-2-0');
  // An NRW city the file does not list.
  const koeln = await ctx.app.get('/api/v1/cities/koeln/solar-roofs');
  assert.equal(at(koeln.json, 'meta.source_status'), 'no_data');
  assert.match(str(koeln.json, 'meta.reason'), /2016/);
});

test('solar-roofs: MaStR answers every city outside NRW, so no register city is not_covered; NRW cities never call it', async () => {
  const dt = CATALOG.byType.get('solar-roofs')!;
  assert.equal(coveredCities(dt)?.length, CITIES.length);
  const r = await ctx.app.get('/api/v1/cities/muenchen/solar-roofs');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source'), 'mastr');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data', 'the fake register lists no unit for München');
  await ctx.app.get('/api/v1/cities/wuppertal/solar-roofs');
  assert.equal(fake.count(MASTR_PATH), 1, 'only München asked the register');
});

test('solar-roofs: a malformed or missing year file fails the precompute, and the stored values stay', async () => {
  const app = await startApp(fakeEnv(fake.url));
  try {
    await precomputeSolarRoofs(app.rt, () => {}, new Date('2026-11-25T12:00:00Z'));
    fake.get(`${BASE}/2016/2016.json`, { body: '<html>Wartung</html>' });
    await assert.rejects(
      precomputeSolarRoofs(app.rt, () => {}, new Date('2026-11-25T12:00:00Z')),
      /not JSON/,
    );
    fake.get(`${BASE}/2016/2016.json`, { json: { features: [] } });
    await assert.rejects(
      precomputeSolarRoofs(app.rt, () => {}, new Date('2026-11-25T12:00:00Z')),
      /in_betrieb/,
    );
    fake.get(`${BASE}/2016/2016.json`, { status: 404, body: 'Not Found' });
    await assert.rejects(
      precomputeSolarRoofs(app.rt, () => {}, new Date('2026-11-25T12:00:00Z')),
      /no year file/,
    );
    const r = await app.get('/api/v1/cities/wuppertal/solar-roofs');
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(at(r.json, 'data.year'), 2016);
  } finally {
    await app.close();
  }
});

test('solar-roofs: ENERGIEATLAS_NRW_ENABLED=false is disabled', async () => {
  await expectDisabled({ fake, env: { ENERGIEATLAS_NRW_ENABLED: 'false' }, path: '/api/v1/cities/wuppertal/solar-roofs', upstreamPrefix: BASE });
});
