import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, type FakeUpstream } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { expectDisabled, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerBa } from './fixtures/ba/routes.ts';
import { GENESIS_FIXTURE_CREDENTIALS, register as registerGenesis } from './fixtures/genesis/routes.ts';
import { parseGrusi } from '../src/sources/ba/grusi.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { at, list, str } from './helpers/json.ts';

const register = (fake: FakeUpstream) => {
  registerBa(fake);
  registerGenesis(fake);
};
const ctx = useFakeApp(register, { env: GENESIS_FIXTURE_CREDENTIALS, keyless: true });
const { fake } = ctx;
const GRUSI = '/bifrontend/bids-api/ct/v1/tableFetch/csv/EckwerteZeitreiheGrusi';

test('parser: Grusi table with months across, newest first, German numbers', () => {
  const g = parseGrusi(fixture('ba/EckwerteZeitreiheGrusi_koeln.csv').toString('utf8'));
  assert.equal(g.region_name, 'Köln, Stadt');
  assert.equal(g.reference_month, '2026-02');
  assert.equal(g.recipients, 112350);
  assert.equal(g.benefit_communities, 58940);
  assert.equal(g.non_employable_recipients, 30480);
  assert.equal(g.figures.length, 4);
  assert.deepEqual(
    g.series.map((s) => s.month),
    ['2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02'],
  );
  assert.equal(g.labels_unmatched, false);
});

test('parser: months down the first column are read too; unknown labels stay in figures', () => {
  const csv = 'Kreis:; X\nAusgewählte Merkmale;Bedarfsgemeinschaften;Regelleistungsberechtigte;\nJanuar 2026;1.000;2.000;\nFebruar 2026;1.100;-;\n©';
  const g = parseGrusi(csv);
  assert.equal(g.reference_month, '2026-02');
  assert.equal(g.benefit_communities, 1100);
  assert.equal(g.recipients, null);
  const other = parseGrusi('Ausgewählte Merkmale;Februar 2026;\nEtwas anderes;5;\n');
  assert.equal(other.labels_unmatched, true);
  assert.deepEqual(other.figures, [{ label: 'Etwas anderes', value: 5 }]);
  assert.throws(() => parseGrusi('<html>Fehler</html>'), /Ausgewählte Merkmale/);
  assert.throws(() => parseGrusi('Ausgewählte Merkmale;Merkmal;\nfoo;bar;\n'), /months/);
});

test('GET social-situation: BA part and both Regionaldatenbank parts, each with its own source', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/social-situation');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.basic_income_support.recipients'), 112350);
  const pop = CITY_BY_SLUG.get('koeln')!.population;
  assert.equal(at(r.json, 'data.basic_income_support.recipients_per_1000_inhabitants'), Math.round((112350 / pop) * 10000) / 10);
  assert.equal(at(r.json, 'data.basic_income_support.attribution'), 'Statistik der Bundesagentur für Arbeit');
  assert.equal(at(r.json, 'attribution.text'), 'Statistik der Bundesagentur für Arbeit');
  assert.equal(at(r.json, 'data.official.housing_benefit.households'), 16840);
  assert.equal(at(r.json, 'data.official.housing_benefit.period'), '2024-12-31');
  assert.equal(at(r.json, 'data.official.housing_benefit.license'), 'dl-de/by-2-0');
  assert.match(str(r.json, 'data.official.housing_benefit.attribution'), /Regionaldatenbank/);
  assert.equal(at(r.json, 'data.official.social_assistance.recipients'), 27415);
  assert.equal(at(r.json, 'data.official.housing_benefit.households_per_1000_inhabitants'), Math.round((16840 / pop) * 10_000) / 10);
  assert.match(str(r.json, 'meta.basic_income_support_note'), /not seen in a recorded answer/);
  const call = fake.requests.find((q) => q.url.includes('EckwerteZeitreiheGrusi'))!;
  assert.equal(new URL(call.url, 'http://x').searchParams.get('Kreis'), 'Köln, Stadt');
});

test('social-situation without GENESIS credentials: ok with the BA part, official parts null naming the credentials', async () => {
  const r = await ctx.keyless.get('/api/v1/cities/koeln/social-situation');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.basic_income_support.benefit_communities'), 58940);
  assert.equal(at(r.json, 'data.official.housing_benefit'), null);
  assert.match(str(r.json, 'meta.official_reasons.housing_benefit'), /GENESIS_USERNAME/);
  assert.equal(fake.count('/genesisws'), 0);
});

test('social-situation: a city inside a Kreis never gets the Kreis value (no_data, no BA table call)', async () => {
  const r = await ctx.app.get('/api/v1/cities/aachen/social-situation');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.basic_income_support_reason'), /belongs to a Kreis/);
  assert.match(str(r.json, 'meta.official_reasons.social_assistance'), /per district only/);
  assert.equal(fake.count(GRUSI), 0);
});

test('social-situation: Kreis unknown to the BA and no Regionaldatenbank object is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/dresden/social-situation');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.basic_income_support_reason'), /14612/);
  assert.match(str(r.json, 'meta.official_reasons.housing_benefit'), /no object/);
});

test('social-situation: Regionaldatenbank down leaves the BA part standing', async () => {
  fake.post('/genesisws/rest/2020/data/tablefile', { status: 500, body: 'boom' });
  const fresh = await startApp({ ...fakeEnv(fake.url), ...GENESIS_FIXTURE_CREDENTIALS });
  try {
    const r = await fresh.get('/api/v1/cities/koeln/social-situation');
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(at(r.json, 'data.basic_income_support.recipients'), 112350);
    assert.equal(at(r.json, 'data.official.housing_benefit'), null);
    assert.match(str(r.json, 'meta.official_reasons.housing_benefit'), /did not answer/);
  } finally {
    await fresh.close();
  }
});

test('social-situation: a malformed BA body is a 503 problem without echoing the body', async () => {
  fake.get(GRUSI, { body: '<!DOCTYPE html><title>Wartung</title>', headers: { 'content-type': 'text/html' } });
  const fresh = await startApp(fakeEnv(fake.url));
  try {
    const r = await fresh.get('/api/v1/cities/koeln/social-situation');
    assert.equal(r.status, 503);
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    assert.doesNotMatch(JSON.stringify(r.json), /Wartung/);
  } finally {
    await fresh.close();
  }
});

test('social-situation: unknown city 404, BA switched off is disabled', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/social-situation');
  await expectDisabled({ fake, env: { BA_STATISTIK_ENABLED: 'false' }, path: '/api/v1/cities/koeln/social-situation' });
});

test('compare social-situation sorts by SGB II recipients per 1,000 inhabitants; a city inside a Kreis has none', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=social-situation&cities=aachen,koeln&sort=value');
  assert.equal(r.status, 200);
  assert.equal(str(r.json, 'meta.value_field'), 'basic_income_support.recipients_per_1000_inhabitants');
  const rows = list<{ city: string; value: number | null }>(r.json, 'data');
  assert.deepEqual(
    rows.map((x) => [x.city, typeof x.value]),
    [
      ['koeln', 'number'],
      ['aachen', 'object'],
    ],
  );
});
