import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { expectDisabled, expectUnavailable, expectUnknownCity } from './helpers/status-rules.ts';
import { register as registerNina } from './fixtures/nina/routes.ts';
import { dashboardArs, parseDashboard, parseDetail } from '../src/sources/nina/warnings.ts';
import { nth } from './helpers/must.ts';
import { at, str, list } from './helpers/json.ts';

const json = (path: string) => JSON.parse(fixture(path).toString());
const DASHBOARD = 'nina/dashboard_ARS-example.json';
const DETAIL = 'nina/warning-detail_mow.DE-BW-S-SE018-20211102-18-001.json';
const NOW = new Date('2021-11-03T12:00:00+01:00');

const ctx = useFakeApp(registerNina);
const { fake } = ctx;

test('parser: dashboard items to warnings, texts verbatim, zoned times, expired ones dropped', () => {
  const raw = json(DASHBOARD);
  const ws = parseDashboard(raw, NOW);
  assert.equal(ws.length, 2);
  assert.equal(nth(ws, 0).id, 'mow.DE-BW-S-SE018-20211102-18-001');
  assert.equal(nth(ws, 0).headline, raw[0].payload.data.headline);
  assert.equal(nth(ws, 0).provider, 'MOWAS');
  assert.equal(nth(ws, 0).severity, 'Minor');
  assert.equal(nth(ws, 0).message_type, 'Update');
  assert.equal(nth(ws, 0).event_code, 'BBK-EVC-040');
  assert.equal(nth(ws, 0).sent, '2021-11-02T20:07:16+01:00');
  assert.equal(nth(ws, 0).start, null);
  assert.equal(nth(ws, 0).end, null);
  assert.equal(nth(ws, 1).start, '2021-11-01T05:20:00+01:00');
  assert.equal(nth(ws, 1).end, '3021-11-22T05:19:00+01:00');
  // a warning whose expiry has passed is not active
  const expired = structuredClone(raw);
  expired[1].expires = '2021-11-02T00:00:00+01:00';
  assert.deepEqual(
    parseDashboard(expired, NOW).map((w) => w.id),
    ['mow.DE-BW-S-SE018-20211102-18-001'],
  );
  assert.deepEqual(parseDashboard([], NOW), []);
  assert.throws(() => parseDashboard({ error: 'x' }, NOW), /NINA dashboard \$: expected array, received object/);
});

test('parser: CAP detail, German info block verbatim with HTML kept', () => {
  const raw = json(DETAIL);
  const d = parseDetail(raw);
  assert.equal(d.event, 'Gefahreninformation');
  assert.deepEqual(d.category, ['Health']);
  assert.equal(d.urgency, 'Immediate');
  assert.equal(d.instruction, raw.info[0].instruction);
  assert.match(d.instruction!, /<br\/>/);
  assert.equal(d.description, raw.info[0].description);
  assert.equal(d.sender_name, 'BBK, Nationale Warnzentrale Bonn');
  assert.equal(d.web, null);
  assert.match(nth(d.areas, 0), /^Bundesland: Freie Hansestadt Bremen/);
  assert.throws(() => parseDetail({ identifier: 'x' }), /NINA warning detail \$\.info: expected array/);
});

test('dashboard ARS: district level, last seven digits zero', () => {
  assert.equal(dashboardArs('081110000000'), '081110000000');
  assert.equal(dashboardArs('032410001001'), '032410000000');
  assert.equal(dashboardArs('053340002002'), '053340000000');
});

test('GET civil-protection-warnings: ok from the district dashboard, without details by default', async () => {
  const r = await ctx.app.get('/api/v1/cities/stuttgart/civil-protection-warnings');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.ars'), '081110000000');
  assert.equal(at(r.json, 'data.warnings.length'), 2);
  assert.equal(at(r.json, 'data.warnings.0.detail'), null);
  assert.equal(at(r.json, 'data.warnings.1.headline'), 'Ausfall Notruf 112');
  assert.equal(fake.count('/api31/dashboard/081110000000.json'), 1);
  assert.equal(fake.count('/api31/warnings/'), 0);
  assert.equal(at(r.json, 'attribution.modified'), false);
  assert.match(str(r.json, 'attribution.text'), /Bevölkerungsschutz/);
});

test('civil-protection-warnings details=true: CAP message per warning; a withdrawn one keeps detail null', async () => {
  const r = await ctx.app.get('/api/v1/cities/karlsruhe/civil-protection-warnings?details=true');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const [first, second] = list(r.json, 'data.warnings');
  assert.equal(at(first, 'detail.event'), 'Gefahreninformation');
  assert.equal(at(first, 'detail.instruction'), json(DETAIL).info[0].instruction);
  assert.equal(at(second, 'detail'), null);
  assert.equal(fake.count('/api31/warnings/'), 2);
});

test('civil-protection-warnings: a kreisangehörige city asks its district dashboard', async () => {
  const r = await ctx.app.get('/api/v1/cities/reutlingen/civil-protection-warnings');
  assert.equal(at(r.json, 'data.ars'), '084150000000');
  assert.equal(fake.count('/api31/dashboard/084150000000.json'), 1);
});

test('civil-protection-warnings: empty dashboard is no_data with the reason', async () => {
  const r = await ctx.app.get('/api/v1/cities/kiel/civil-protection-warnings');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.equal(at(r.json, 'meta.reason'), 'no active warning for this district');
});

test('civil-protection-warnings: malformed body is a 503 problem, bad details value 422', async () => {
  fake.get(/^\/api31\/dashboard\//, { body: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } });
  const r = await ctx.app.get('/api/v1/cities/bonn/civil-protection-warnings');
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  fake.get(/^\/api31\/dashboard\//, { json: { message: 'not an array' } });
  assert.equal((await ctx.app.get('/api/v1/cities/essen/civil-protection-warnings')).status, 503);
  const bad = await ctx.app.get('/api/v1/cities/bonn/civil-protection-warnings?details=yes');
  assert.equal(bad.status, 422);
});

test('civil-protection-warnings: 404 unknown city, 503 dead upstream, disabled by toggle', async () => {
  await expectUnknownCity(ctx.app, '/api/v1/cities/atlantis/civil-protection-warnings');
  await expectUnavailable({ fake, path: '/api/v1/cities/dortmund/civil-protection-warnings' });
  await expectDisabled({ fake, env: { NINA_ENABLED: 'false' }, path: '/api/v1/cities/stuttgart/civil-protection-warnings' });
});
