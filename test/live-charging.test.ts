import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { OCPDB_STATUS_JOINABLE, register as registerMobidata } from './fixtures/mobidata/routes.ts';
import { PULL_PATHS, register as registerMobilithek, MOBILITHEK_CERT_ENV } from './fixtures/mobilithek/routes.ts';
import { at, list, str } from './helpers/json.ts';
import type { LiveChargePoint } from '../src/core/records/energy.ts';

const CREDENTIALS = {
  ...MOBILITHEK_CERT_ENV,
  EROUND_CHARGING_SUBSCRIPTION_ID: 'eround_charging_subscription_id',
};

const ctx = useFakeApp(
  (fake) => {
    registerMobidata(fake);
    registerMobilithek(fake);
  },
  { env: CREDENTIALS, keyless: true },
);
const { fake } = ctx;
const REALTIME = '/ocpdb/api/public/datex/v3.5/json/realtime';
const STATIC = '/ocpdb/api/public/datex/v3.5/json/static';

async function fresh<T>(run: (app: Awaited<ReturnType<typeof startApp>>) => Promise<T>): Promise<T> {
  const app = await startApp({ ...fakeEnv(fake.url), ...CREDENTIALS });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

const points = (json: unknown) => list<LiveChargePoint>(json, 'data');

test('mobidata-bw: the recorded EnBW status (no point in the GLS table): status-only points with null static fields, honest meta', async () => {
  const r = await ctx.app.get('/api/v1/live/mobidata-bw/charging');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'attribution.source'), 'MobiData BW Open ChargePoint DataBase');
  const p = points(r.json);
  assert.equal(p.length, 11, '2 + 2 + 3 + 2 + 2 refill points');
  const first = p[0]!;
  assert.equal(first.id, 'DE*EBW*E914082*2');
  assert.equal(first.station_id, '13538');
  assert.equal(first.site_id, '800030182');
  assert.equal(first.status, 'available');
  assert.equal(first.last_updated_at, '2026-03-12T06:51:57+01:00');
  assert.equal(first.static_joined, false);
  assert.equal(first.power_kw, null);
  assert.deepEqual(first.plug_types, []);
  assert.equal(first.lat, null);
  assert.deepEqual(
    p.map((x) => `${x.upstream_status}:${x.status}`).filter((s, i, all) => all.indexOf(s) === i),
    ['available:available', 'charging:occupied', 'faulted:out_of_order', 'occupied:occupied'],
  );
  assert.equal(at(r.json, 'meta.points_with_static'), 0);
  assert.equal(at(r.json, 'meta.points_status_only'), 11);
  assert.match(str(r.json, 'meta.static_table'), /no status point is in the static table/);
  assert.equal(at(r.json, 'meta.as_of'), '2026-03-12T06:51:57+01:00');
  assert.equal(fake.count(REALTIME), 1);
  assert.equal(fake.count(STATIC), 1);
});

test('mobidata-bw: points the static table knows get power, plug types, address and position; planned points are left out', async () => {
  fake.get(REALTIME, { file: OCPDB_STATUS_JOINABLE });
  const r = await fresh((app) => app.get('/api/v1/live/mobidata-bw/charging'));
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const p = points(r.json);
  assert.deepEqual(
    p.map((x) => x.id),
    ['10338', '10339'],
  );
  const a = p[0]!;
  assert.equal(a.static_joined, true);
  assert.equal(a.status, 'available');
  assert.equal(a.power_kw, 22);
  assert.deepEqual(a.plug_types, ['iec62196T2']);
  assert.equal(a.operator, 'GLS Mobility GmbH');
  assert.equal(a.street, 'Christstr.');
  assert.equal(a.house_number, '9-11');
  assert.equal(a.post_code, '44789', 'the table pads it with a space');
  assert.equal(a.place, 'Bochum');
  assert.equal(a.lat, 51.4708953);
  assert.equal(p[1]!.status, 'occupied');
  assert.equal(at(r.json, 'meta.points_with_static'), 2);
});

test('mobidata-bw: a static table that cannot be read leaves status-only points and says why', async () => {
  fake.get(STATIC, { status: 500, body: 'down' });
  const r = await fresh((app) => app.get('/api/v1/live/mobidata-bw/charging'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(points(r.json).length, 11);
  assert.match(str(r.json, 'meta.static_table'), /could not be read/);
});

test('eround: the AFIR status through Mobilithek (query pull, gzip), status-only', async () => {
  const r = await ctx.app.get('/api/v1/live/eround/charging');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'attribution.license'), 'CC0-1.0');
  assert.equal(points(r.json).length, 11);
  assert.match(str(r.json, 'meta.static_table'), /no static table is subscribed/);
  const q = fake.requests.find((x) => x.url.startsWith('/mobilithek/'));
  const u = new URL(q!.url, 'http://x');
  assert.equal(u.pathname, '/mobilithek/api/v1.0/subscription');
  assert.equal(u.searchParams.get('subscriptionID'), 'eround_charging_subscription_id');
  assert.match(String(q!.headers['accept-encoding']), /gzip/);
});

test('eround without certificate or subscription: disabled naming what is missing; mobidata-bw still answers', async () => {
  const r = await ctx.keyless.get('/api/v1/live/eround/charging');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'disabled');
  assert.equal(
    str(r.json, 'meta.disabled_reason'),
    'server credentials missing: MOBILITHEK_CERT_PATH, MOBILITHEK_CERT_PASSWORD, EROUND_CHARGING_SUBSCRIPTION_ID',
  );
  assert.equal(fake.count('/mobilithek/'), 0);
  const m = await ctx.keyless.get('/api/v1/live/mobidata-bw/charging');
  assert.equal(at(m.json, 'meta.source_status'), 'ok');
});

test('unknown operator: 404 problem listing the operators', async () => {
  const r = await ctx.app.get('/api/v1/live/tesla/charging');
  assert.equal(r.status, 404);
  assert.equal(at(r.json, 'code'), 'route_not_found');
  assert.equal(at(r.json, 'hint'), 'operator must be one of: mobidata-bw, eround.');
  assert.deepEqual(at(r.json, 'allowed'), ['mobidata-bw', 'eround']);
  assert.equal(fake.count(), 0);
});

test('eround: HTTP 422 is no_data; broken JSON, an entity-laden XML body or a wrong publication is a 503, never a 500', async () => {
  fake.get(PULL_PATHS.query, { status: 422, body: '' });
  const a = await fresh((app) => app.get('/api/v1/live/eround/charging'));
  assert.equal(a.status, 200);
  assert.equal(at(a.json, 'meta.source_status'), 'no_data');
  for (const body of [
    '{"messageContainer": {"payload": [',
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><d>&x;</d>',
    '{"payload": {"aegiEnergyInfrastructureTablePublication": {}}}',
  ]) {
    fake.get(PULL_PATHS.query, { body: gzipSync(body), headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' } });
    const r = await fresh((app) => app.get('/api/v1/live/eround/charging'));
    assert.equal(r.status, 503, body.slice(0, 30));
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    assert.doesNotMatch(r.text, /passwd|127\.0\.0\.1/);
  }
});

test('mobidata-bw: malformed realtime JSON is a 503 problem', async () => {
  fake.get(REALTIME, { body: '{"messageContainer": ', headers: { 'content-type': 'application/json' } });
  const r = await fresh((app) => app.get('/api/v1/live/mobidata-bw/charging'));
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
});
