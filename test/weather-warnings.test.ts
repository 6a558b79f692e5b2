import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerBrightSky } from './fixtures/brightsky/routes.ts';
import { municipalityWarnCell, parseAlerts } from '../src/sources/brightsky/alerts.ts';
import { nth } from './helpers/must.ts';
import { at, list, str } from './helpers/json.ts';

const json = (path: string) => JSON.parse(fixture(path).toString());
const HEAT = 'brightsky/alerts-warncell-809374166-2023-08-22-heat.json';
const RAIN = 'brightsky/alerts-warncell-809374166-2023-08-26-dauerregen.json';
const EMPTY = 'brightsky/alerts-warncell-809374166-empty.json';

const ctx = useFakeApp(registerBrightSky);
const { fake } = ctx;

const alertQueries = () => fake.requests.filter((r) => r.url.startsWith('/alerts')).map((r) => new URL(r.url, 'http://x').searchParams);

test('parser: heat warning, texts verbatim in both languages, zoned times', () => {
  const raw = json(HEAT);
  const d = parseAlerts(raw);
  assert.equal(d.warnings.length, 1);
  const w = nth(d.warnings, 0);
  assert.equal(w.event_de, 'STARKE HITZE');
  assert.equal(w.event_en, 'strong heat');
  assert.equal(w.severity, 'minor');
  assert.equal(w.urgency, 'immediate');
  assert.equal(w.category, 'health');
  assert.equal(w.event_code, 247);
  // DWD forbids altering warnings: byte-identical texts, trailing blank included
  for (const k of ['headline_de', 'headline_en', 'description_de', 'description_en', 'instruction_de', 'instruction_en'] as const) {
    assert.equal(w[k], raw.alerts[0][k], k);
  }
  assert.equal(w.description_de, 'Am Dienstag wird eine starke Wärmebelastung erwartet. ');
  assert.equal(w.start, '2023-08-22T11:00:00+02:00');
  assert.equal(w.end, '2023-08-22T19:00:00+02:00');
  assert.equal(w.effective_at, '2023-08-22T09:35:00+02:00');
  // 2023 answers have no status yet: they are actual warnings
  assert.equal(w.status, 'actual');
  assert.equal(d.warn_cell?.id, 809374166);
  assert.equal(d.warn_cell?.name_short, 'Weiherhammer');
});

test('parser: missing instruction stays null; empty list; test messages dropped; malformed body rejected', () => {
  const rain = nth(parseAlerts(json(RAIN)).warnings, 0);
  assert.equal(rain.instruction_de, null);
  assert.equal(rain.instruction_en, null);
  assert.equal(rain.severity, 'moderate');
  assert.equal(rain.end, '2023-08-29T18:00:00+02:00');
  const empty = parseAlerts(json(EMPTY));
  assert.deepEqual(empty.warnings, []);
  assert.equal(empty.warn_cell?.state_short, 'BY');
  const withTest = json(HEAT);
  withTest.alerts.push({ ...withTest.alerts[0], id: 1, status: 'test' });
  assert.equal(parseAlerts(withTest).warnings.length, 1);
  assert.throws(() => parseAlerts({}), /Bright Sky alerts \$\.alerts: /);
  assert.equal(municipalityWarnCell('03159016'), '803159016');
});

test('GET weather-warnings: municipality cell 8+AGS, warnings with both languages', async () => {
  const r = await ctx.app.get('/api/v1/cities/braunschweig/weather-warnings');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(nth(alertQueries(), 0).get('warn_cell_id'), '803101000');
  const w = at(r.json, 'data.warnings.0');
  assert.equal(at(w, 'headline_de'), 'Amtliche WARNUNG vor HITZE');
  assert.equal(at(w, 'headline_en'), 'Official WARNING of STRONG HEAT');
  assert.equal(at(w, 'start'), '2023-08-22T11:00:00+02:00');
  // the normaliser adds the deprecated twins
  assert.equal(at(w, 'beginn'), at(w, 'start'));
  assert.equal(at(w, 'ende'), at(w, 'end'));
  assert.match(str(r.json, 'attribution.text'), /Deutscher Wetterdienst/);
  // DWD forbids altering warnings: they are passed on unchanged, so no modification notice.
  assert.equal(at(r.json, 'attribution.modified'), false);
  assert.equal(at(r.json, 'attribution.modification_notice'), undefined);
  assert.ok(at(r.json, 'meta.warn_cell'));
});

test('weather-warnings: no active warning is no_data with the reason and the cell', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/weather-warnings');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.equal(at(r.json, 'meta.reason'), 'no active DWD warning');
  // The fake answers Kiel's own cell (no recording there) as Bright Sky answers a quiet cell.
  assert.equal(at(r.json, 'meta.warn_cell.id'), 801002000);
  assert.equal(at(r.json, 'meta.warn_cell.name_short'), 'Kiel');
});

test('weather-warnings: a cell Bright Sky does not know falls back to the register point', async () => {
  // The point lies in Hannover's cell: a rain warning there, in the recorded answer's shape.
  const hannover = {
    warn_cell_id: 803241001,
    name: 'Hannover',
    name_short: 'Hannover',
    district: 'Region Hannover',
    state: 'Niedersachsen',
    state_short: 'NI',
  };
  fake.get('/alerts', (_req, url) =>
    url.searchParams.has('warn_cell_id')
      ? { status: 404, json: { detail: 'Unknown warn_cell_id, please use commune (Gemeinden), not district (Landkreis) ids' } }
      : { json: { ...json(RAIN), location: hannover } },
  );
  const r = await ctx.app.get('/api/v1/cities/hannover/weather-warnings');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.warnings.0.event_de'), 'DAUERREGEN');
  assert.equal(at(r.json, 'meta.warn_cell.id'), 803241001);
  const queries = alertQueries();
  const byCell = nth(queries, 0),
    byPoint = nth(queries, 1);
  assert.equal(byCell.get('warn_cell_id'), '803241001');
  assert.ok(Math.abs(Number(byPoint.get('lat')) - 52.37) < 0.1);
});

test("weather-warnings: compare resource carries each city's status", async () => {
  const r = await ctx.app.get('/api/v1/compare?cities=braunschweig,kiel&resource=weather-warnings');
  assert.equal(r.status, 200);
  const by = Object.fromEntries(list<{ city: string; source_status: string }>(r.json, 'data').map((i: { city: string; source_status: string }) => [i.city, i]));
  assert.equal(at(by, 'braunschweig.source_status'), 'ok');
  assert.equal(at(by, 'braunschweig.data.warnings.0.event_de'), 'STARKE HITZE');
  assert.equal(at(by, 'kiel.source_status'), 'no_data');
});

test('weather-warnings: unknown city is 404', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/entenhausen/weather-warnings');
});

test('weather-warnings: BRIGHTSKY_ALERTS_ENABLED=false answers 200 disabled with data null and no upstream call', async () => {
  await expectDisabled({ fake, env: { BRIGHTSKY_ALERTS_ENABLED: 'false' }, path: '/api/v1/cities/braunschweig/weather-warnings', upstreamPrefix: '/alerts' });
});

test('weather-warnings: dead upstream with nothing cached is a 503 problem pointing to /api/v1/health', async () => {
  await expectUnavailable({ fake, path: '/api/v1/cities/braunschweig/weather-warnings' });
});
