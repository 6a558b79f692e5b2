import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, startApp } from './helpers/app.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { GENESIS_FIXTURE_CREDENTIALS, register as registerGenesis, registerGenesisFake } from './fixtures/genesis/routes.ts';
import { at, list, num, obj, str } from './helpers/json.ts';

const TABLEFILE = '/genesisws/rest/2020/data/tablefile';

const ctx = useFakeApp(registerGenesis, { env: GENESIS_FIXTURE_CREDENTIALS });
const { fake } = ctx;

const tablefileForms = () => fake.requests.filter((r) => r.url === TABLEFILE).map((r) => new URLSearchParams(r.body));

test('disabled without credentials: data null, reason named, no upstream call', async () => {
  const bare = await startApp(fakeEnv(fake.url));
  try {
    // demographics has a keyless fallback (test/keyless-fallback.test.ts); these have none.
    for (const type of ['population-structure', 'insolvencies', 'tax-rates']) {
      const r = await bare.get(`/api/v1/cities/koeln/${type}`);
      assert.equal(r.status, 200);
      assert.equal(at(r.json, 'meta.source_status'), 'disabled');
      assert.equal(at(r.json, 'data'), null);
      assert.match(str(r.json, 'meta.disabled_reason'), /GENESIS_USERNAME/);
    }
    assert.equal(fake.count('/genesisws'), 0);
  } finally {
    await bare.close();
  }
});

test('demographics for Köln: the POST form and auth headers the real API wants', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/demographics');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.table'), '12411-01-01-5');
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/by-2-0');
  const d = at(r.json, 'data');
  assert.equal(at(d, 'population'), 1024621);
  assert.equal(at(d, 'population_male'), 498050);
  assert.equal(at(d, 'population_female'), 526571);
  assert.equal(at(d, 'female_share_pct'), 51.39);
  assert.equal(at(d, 'period'), '2024-12-31');
  assert.equal(at(d, 'reference_date'), '2024-12-31');
  assert.equal(at(d, 'region_key'), '05315');
  assert.equal(at(d, 'units.population'), 'count');

  const req = fake.requests.find((x) => x.url === TABLEFILE)!;
  assert.equal(req.method, 'POST');
  assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
  assert.equal(req.headers.username, GENESIS_FIXTURE_CREDENTIALS.GENESIS_USERNAME);
  assert.equal(req.headers.password, GENESIS_FIXTURE_CREDENTIALS.GENESIS_PASSWORD);
  const form = new URLSearchParams(req.body);
  assert.equal(form.get('name'), '12411-01-01-5');
  // kreisfreie Städte are the KREISE node even in Gemeinde tables
  assert.equal(form.get('regionalvariable'), 'KREISE');
  assert.equal(form.get('regionalkey'), '05315');
  assert.equal(form.get('format'), 'ffcsv');
  assert.equal(form.get('language'), 'de');
  assert.equal(form.get('area'), 'all');
  assert.equal(form.get('compress'), 'false');
  assert.equal(form.get('transpose'), 'false');
  assert.equal(form.get('job'), 'false');
  assert.equal(form.get('timeslices'), '3');
  assert.ok(!req.url.includes('password') && !req.body.includes(GENESIS_FIXTURE_CREDENTIALS.GENESIS_PASSWORD));
});

/** One expectation per data type, all for Köln (district-free, so district tables apply). */
const KOELN: [type: string, table: string, field: string, value: unknown][] = [
  ['demographics', '12411-01-01-5', 'population', 1024621],
  ['population-structure', '12411-02-03-5', 'population', 1024621],
  ['population-trend', '12411-01-01-5', 'population', 1024621],
  ['tourism', '45412-01-03-5', 'overnight_stays', 6679315],
  ['labour-market', '13111-01-03-5', 'employees', 601874],
  ['business-registrations', '52311-01-04-4', 'registrations', 11925],
  ['insolvencies', '52411-02-01-4', 'company_insolvencies', 427],
  ['construction', '31111-01-02-5', 'dwellings', 3107],
  ['municipal-finance', '71231-01-03-5', 'trade_tax_net_thousand_eur', 1511975],
  ['tax-rates', '71231-01-03-5', 'trade_tax_rate_pct', 475],
  ['vehicle-registrations', '46251-01-03-4', 'passenger_cars', 492104],
  ['care', '22411-02-05-4', 'care_recipients', 68214],
  ['childcare', '22543-03-01-4', 'care_rate_under_3_pct', 36.2],
  ['integration', '12511-04-01-4', 'naturalisations', 6214],
  ['education-stats', '21111-01-03-4', 'pupils', 135812],
];

test('all 15 types answer ok for Köln with period, unit and table', async () => {
  for (const [type, table, field, value] of KOELN) {
    const r = await ctx.app.get(`/api/v1/cities/koeln/${type}`);
    assert.equal(r.status, 200, type);
    assert.equal(at(r.json, 'meta.source_status'), 'ok', type);
    assert.equal(at(r.json, 'meta.table'), table, type);
    assert.equal(obj(r.json, 'data')[field], value, `${type}.${field}`);
    assert.ok(at(r.json, 'data.period'), `${type} period`);
    assert.ok('reference_date' in obj(r.json, 'data'), `${type} reference_date`);
    assert.equal(typeof at(r.json, 'data.units'), 'object', `${type} units`);
  }
});

test('selected values: breakdowns, derived values, series and the fallback to an earlier period', async () => {
  const ps = at((await ctx.app.get('/api/v1/cities/koeln/population-structure')).json, 'data');
  assert.equal(at(ps, 'age_groups.length'), 17);
  assert.equal(
    list<{ population: number }>(ps, 'age_groups').reduce((s: number, g: { population: number }) => s + g.population, 0),
    1024621,
  );
  assert.equal(at(ps, 'age_groups.0.code'), 'ALT000B03');
  assert.equal(at(ps, 'age_groups.0.population'), num(ps, 'age_groups.0.population_male') + num(ps, 'age_groups.0.population_female'));

  const trend = at((await ctx.app.get('/api/v1/cities/koeln/population-trend')).json, 'data');
  assert.equal(at(trend, 'series.length'), 11);
  assert.equal(at(trend, 'series.0.period'), '2014-12-31');
  assert.equal(at(trend, 'series_start'), '2014-12-31');
  assert.equal(at(trend, 'population_change'), 1024621 - 1046680);
  assert.equal(at(trend, 'population_change_pct'), -2.11);

  const lm = at((await ctx.app.get('/api/v1/cities/koeln/labour-market')).json, 'data');
  assert.equal(at(lm, 'period'), '2024-06-30', 'the newest Stichtag 2025-06-30 is all "-"');
  assert.equal(at(lm, 'employees_foreign'), 99311);
  assert.equal(at(lm, 'foreign_share_pct'), 16.5);

  const ins = at((await ctx.app.get('/api/v1/cities/koeln/insolvencies')).json, 'data');
  assert.equal(at(ins, 'proceedings_opened'), 319);
  assert.equal(at(ins, 'rejected_lack_of_assets'), 108);
  assert.equal(at(ins, 'expected_claims_thousand_eur'), 238604);
  assert.equal(at(ins, 'units.expected_claims_thousand_eur'), 'thousand EUR');

  const br = at((await ctx.app.get('/api/v1/cities/muenchen/business-registrations')).json, 'data');
  assert.equal(at(br, 'registrations'), 15350);
  assert.equal(at(br, 'net_registrations'), 5105);

  const tour = at((await ctx.app.get('/api/v1/cities/muenchen/tourism')).json, 'data');
  assert.equal(at(tour, 'arrivals'), 9279239);
  assert.equal(at(tour, 'establishments'), 470);
  assert.equal(at(tour, 'average_stay_nights'), 2.12);

  const nat = at((await ctx.app.get('/api/v1/cities/koeln/integration')).json, 'data');
  assert.equal(at(nat, 'naturalisation_rate_pct'), 2.9);
  assert.equal(
    list<{ label: string; naturalisations: number | null }>(nat, 'by_nationality').find((n: { label: string }) => n.label === 'Kosovo')?.naturalisations,
    null,
  );
});

test('Hannover and Aachen: municipality tables ok, district-only tables no_data with the reason', async () => {
  const demo = await ctx.app.get('/api/v1/cities/hannover/demographics');
  assert.equal(at(demo.json, 'meta.source_status'), 'ok');
  assert.equal(at(demo.json, 'data.population'), 550317);
  assert.equal(at(demo.json, 'data.region_key'), '03241001');
  const form = tablefileForms().find((f) => f.get('name') === '12411-01-01-5')!;
  assert.equal(form.get('regionalvariable'), 'GEMEIN');
  assert.equal(form.get('regionalkey'), '03241001');

  assert.equal(at((await ctx.app.get('/api/v1/cities/aachen/demographics')).json, 'data.population'), 253510);
  assert.equal(at((await ctx.app.get('/api/v1/cities/hannover/tax-rates')).json, 'data.property_tax_b_rate_pct'), 600);

  fake.reset();
  registerGenesis(fake);
  for (const [slug, district] of [
    ['hannover', '03241'],
    ['aachen', '05334'],
  ]) {
    for (const type of ['insolvencies', 'business-registrations', 'care', 'childcare', 'vehicle-registrations', 'integration', 'education-stats']) {
      const r = await ctx.app.get(`/api/v1/cities/${slug}/${type}`);
      assert.equal(r.status, 200);
      assert.equal(at(r.json, 'meta.source_status'), 'no_data', `${slug}/${type}`);
      assert.equal(at(r.json, 'data'), null);
      assert.match(str(r.json, 'meta.reason'), new RegExp(`district only.*${district}`), `${slug}/${type}`);
      assert.ok(at(r.json, 'meta.table'));
    }
  }
  assert.equal(fake.count('/genesisws'), 0, 'a district table is never asked for a city inside a district');
});

test('secret municipality values everywhere: no_data with the reason (Hannover tourism)', async () => {
  const r = await ctx.app.get('/api/v1/cities/hannover/tourism');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /placeholder/);
});

test('a key the table does not hold (status 104) is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/saarbruecken/construction');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /holds no object/);
});

test('compare: demographics and tourism delegate to the per-city types', async () => {
  const r = await ctx.app.get('/api/v1/compare?cities=koeln,hannover&resource=tourism');
  assert.equal(r.status, 200);
  const by = Object.fromEntries(list<{ city: string }>(r.json, 'data').map((i: { city: string }) => [i.city, i]));
  assert.equal(at(by, 'koeln.source_status'), 'ok');
  assert.equal(at(by, 'koeln.data.arrivals'), 3713452);
  assert.equal(at(by, 'hannover.source_status'), 'no_data');
  const d = await ctx.app.get('/api/v1/compare?cities=koeln,aachen&resource=demographics');
  assert.deepEqual(
    list<{ data: { population: number } }>(d.json, 'data')
      .map((i: { data: { population: number } }) => i.data.population)
      .sort(),
    [1024621, 253510],
  );
});

test('unknown city is 404', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/demographics');
});

test('tax-rates and municipal-finance share one table request per city', async () => {
  await ctx.app.get('/api/v1/cities/aachen/tax-rates');
  await ctx.app.get('/api/v1/cities/aachen/municipal-finance');
  assert.equal(tablefileForms().filter((f) => f.get('name') === '71231-01-03-5').length, 1);
});

test('upstream dead and nothing cached: 503', async () => {
  await expectUnavailable({ fake, env: GENESIS_FIXTURE_CREDENTIALS, path: '/api/v1/cities/berlin/vehicle-registrations' });
});

test('an error status answered with HTTP 200 is a failure, not data (503 without cache)', async () => {
  fake.post(TABLEFILE, (_req, _url, body) => ({
    json: {
      Ident: { Service: 'data', Method: 'tablefile' },
      Status: { Code: 90, Content: 'Die angeforderte Tabelle ist nicht vorhanden', Type: 'Fehler' },
      Parameter: Object.fromEntries(new URLSearchParams(body)),
      Object: null,
    },
  }));
  const r = await ctx.app.get('/api/v1/cities/muenchen/care');
  assert.equal(r.status, 503);
});

test('wrong credentials get the real 404 Code 2 answer and fail (503), missing ones 401', async () => {
  const wrong = await startApp({ ...fakeEnv(fake.url), GENESIS_USERNAME: 'someone', GENESIS_PASSWORD: 'wrong' });
  try {
    const r = await wrong.get('/api/v1/cities/koeln/demographics');
    assert.equal(r.status, 503);
  } finally {
    await wrong.close();
  }
  const direct = await fetch(`${fake.url}${TABLEFILE}`, { method: 'POST', body: 'name=12411-01-01-5' });
  assert.equal(direct.status, 401);
  assert.equal(((await direct.json()) as { Code: number }).Code, 15);
});

test('a table too large for a direct answer (status 98) is fetched through a job', async () => {
  const fresh = await startApp({ ...fakeEnv(fake.url), ...GENESIS_FIXTURE_CREDENTIALS });
  try {
    fake.reset();
    registerGenesisFake(fake, { large: ['52311-01-04-4'] });
    const r = await fresh.get('/api/v1/cities/muenchen/business-registrations');
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(at(r.json, 'data.registrations'), 15350);
    const forms = tablefileForms();
    assert.deepEqual(
      forms.map((f) => f.get('job')),
      ['false', 'true'],
    );
    assert.equal(fake.count('/genesisws/rest/2020/catalogue/results'), 1);
    const result = fake.requests.find((x) => x.url === '/genesisws/rest/2020/data/resultfile')!;
    assert.match(new URLSearchParams(result.body).get('name') ?? '', /^52311-01-04-4_\d+$/);
    assert.equal(result.headers.username, GENESIS_FIXTURE_CREDENTIALS.GENESIS_USERNAME);
  } finally {
    await fresh.close();
  }
});
