import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { PULL_PATHS, register as registerMobilithek, replayXmlAsCurrent, MOBILITHEK_CERT_ENV, V2_STATUS, V2_TABLE } from './fixtures/mobilithek/routes.ts';
import { fixture, type Reply } from './helpers/fake-upstream.ts';
import { at, list, str } from './helpers/json.ts';
import { readDatex } from '../src/sources/mobilithek/datex2.ts';
import { parseDynamicSite } from '../src/sources/mobilithek/parking.ts';
import type { ParkingSiteRecord } from '../src/core/records/mobility.ts';

/** Both subscriptions of the three cities and the certificate, as the demo sets them (fixtureSettings). */
const CREDENTIALS: Record<string, string> = {
  ...MOBILITHEK_CERT_ENV,
};
for (const city of ['FRANKFURT', 'MAGDEBURG', 'WUPPERTAL'])
  for (const kind of ['STATIC', 'DYNAMIC']) {
    const name = `${city}_PARKING_${kind}_SUBSCRIPTION_ID`;
    CREDENTIALS[name] = name.toLowerCase();
  }

const ctx = useFakeApp(registerMobilithek, { env: CREDENTIALS, keyless: true });
const { fake } = ctx;

async function fresh<T>(run: (app: Awaited<ReturnType<typeof startApp>>) => Promise<T>, env: Record<string, string> = CREDENTIALS): Promise<T> {
  const app = await startApp({ ...fakeEnv(fake.url), ...env });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

const sites = (json: unknown) => list<ParkingSiteRecord>(json, 'data');
const byId = (json: unknown, id: string) => sites(json).find((s) => s.id.endsWith(`:${id}`));

test('Frankfurt (DATEX II V3, container pull): static table joined with the status by parkingRecordReference@id', async () => {
  const r = await ctx.app.get('/api/v1/cities/frankfurt-am-main/parking');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'attribution.source'), 'Stadt Frankfurt am Main, Parkhausbelegung (Mobilithek, DATEX II V3)');
  assert.equal(sites(r.json).length, 4, 'three static records and one status-only record');
  const p1 = byId(r.json, 'FFM-P001');
  assert.equal(p1?.id, 'mobilithek-parking-frankfurt-am-main:FFM-P001');
  assert.equal(p1?.name, 'Parkhaus Beispiel Innenstadt');
  assert.equal(p1?.capacity, 500);
  assert.equal(p1?.free_spaces, 125);
  assert.equal(p1?.occupancy_share, 0.75);
  assert.equal(p1?.state, 'open');
  assert.equal(p1?.lat, 50.11362);
  assert.equal(p1?.live, true);
  // Only the percentage: the share comes from it, free spaces stay unknown.
  const p2 = byId(r.json, 'FFM-P002');
  assert.equal(p2?.free_spaces, null);
  assert.equal(p2?.occupancy_share, 0.4);
  assert.equal(p2?.state, 'closed');
  // In the table, not in the status: capacity without a live value.
  const p3 = byId(r.json, 'FFM-P003');
  assert.equal(p3?.capacity, 120);
  assert.equal(p3?.live, false);
  assert.equal(p3?.free_spaces, null);
  // In the status, not in the table: the count without name or position (nothing made up).
  const p4 = byId(r.json, 'FFM-P004');
  assert.equal(p4?.free_spaces, 30);
  assert.equal(p4?.name, null);
  assert.equal(p4?.lat, null);
  assert.equal(p4?.occupancy_share, 0.85);
  assert.equal(at(r.json, 'meta.status_records_without_static'), 1);
  const pulls = fake.requests.map((q) => new URL(q.url, 'http://x'));
  assert.ok(pulls.every((u) => u.pathname === '/mobilithek/api/v1.0/container/subscription'));
  assert.deepEqual(pulls.map((u) => u.searchParams.get('subscriptionID')).sort(), [
    'frankfurt_parking_dynamic_subscription_id',
    'frankfurt_parking_static_subscription_id',
  ]);
  assert.ok(fake.requests.every((q) => /gzip/.test(String(q.headers['accept-encoding']))));
});

test("Magdeburg and Wuppertal without a recording: their subscriptions answer 422, no_data, never another city's car parks", async () => {
  for (const city of ['magdeburg', 'wuppertal']) {
    const r = await ctx.app.get(`/api/v1/cities/${city}/parking`);
    assert.equal(r.status, 200, city);
    assert.equal(at(r.json, 'meta.source_status'), 'no_data', city);
    assert.equal(at(r.json, 'data'), null);
  }
});

test('Magdeburg and Wuppertal (V2 ParkingFacility profile): the recorded Stuttgart status joined with the table; a site older than 48 h loses its count', async () => {
  // No recording of either city exists: the V2 profile is read from the recorded Stuttgart status,
  // which this test alone serves for their subscriptions (the shared fake answers them 422).
  fake.get(PULL_PATHS.path, (_req, url): Reply =>
    url.searchParams.get('subscriptionID')?.includes('dynamic')
      ? { body: replayXmlAsCurrent(fixture(V2_STATUS).toString('utf8')), headers: { 'content-type': 'application/xml' }, gzip: true }
      : { file: V2_TABLE, gzip: true },
  );
  for (const city of ['magdeburg', 'wuppertal']) {
    const r = await fresh((app) => app.get(`/api/v1/cities/${city}/parking`));
    assert.equal(r.status, 200, city);
    assert.equal(at(r.json, 'meta.source_status'), 'ok');
    assert.equal(sites(r.json).length, 5);
    const current = byId(r.json, '12717315');
    assert.equal(current?.free_spaces, 451);
    assert.equal(current?.capacity, 520);
    assert.equal(current?.occupancy_share, 0.133);
    assert.equal(current?.name, 'Parkhaus Beispiel 4');
    assert.equal(current?.state, 'open');
    assert.equal(byId(r.json, '12717253')?.state, 'closed', 'closed and spacesAvailable: closed wins');
    // 2022-02-11 in the recording: far older than the newest value of the feed.
    const old = byId(r.json, '12717289');
    assert.equal(old?.free_spaces, null);
    assert.equal(old?.occupancy_share, null);
    assert.equal(old?.capacity, 564);
    const statusOnly = byId(r.json, '12717375');
    assert.equal(statusOnly?.free_spaces, 528);
    assert.equal(statusOnly?.name, null);
    assert.equal(statusOnly?.capacity, null);
    assert.equal(at(r.json, 'attribution.license'), city === 'wuppertal' ? 'dl-de/zero-2-0' : 'dl-de/by-2-0');
  }
  assert.ok(fake.requests.every((q) => new URL(q.url, 'http://x').pathname.endsWith('/clientPullService')));
});

test('V2 occupancy: Magdeburg sends percent, Wuppertal a share; both become a 0..1 share', () => {
  const status = (value: string) =>
    readDatex(
      Buffer.from(
        `<d2LogicalModel xmlns="http://datex2.eu/schema/2/2_0"><parkingFacilityStatus><parkingFacilityReference id="A"/><parkingFacilityOccupancy>${value}</parkingFacilityOccupancy><parkingFacilityStatus>open</parkingFacilityStatus></parkingFacilityStatus></d2LogicalModel>`,
      ),
      'parkingFacilityStatus',
    ).records[0]!;
  assert.equal(parseDynamicSite(status('62.5'), 'v2-facility', 'percent')?.occupancy, 0.625);
  assert.equal(parseDynamicSite(status('0.625'), 'v2-facility', 'share')?.occupancy, 0.625);
  assert.equal(parseDynamicSite(status('62.5'), 'v2-facility', 'share')?.occupancy, null, 'outside 0..1 is no share');
});

test('parking elsewhere never asks the Mobilithek; an uncovered city is not_covered naming the DATEX cities among the others', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/parking');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'not_covered');
  const covered = at(r.json, 'meta.covered_cities') as string[];
  for (const city of ['frankfurt-am-main', 'magdeburg', 'wuppertal', 'freiburg-im-breisgau']) assert.ok(covered.includes(city), city);
  await ctx.app.get('/api/v1/cities/freiburg-im-breisgau/parking');
  assert.equal(fake.count('/mobilithek/'), 0);
});

test('the former live-parking path is a deprecated alias of parking: same body, Deprecation and Link to the successor', async () => {
  const canonical = await ctx.app.get('/api/v1/cities/frankfurt-am-main/parking');
  const alias = await ctx.app.get('/api/v1/live/Frankfurt/parking');
  assert.equal(alias.status, 200);
  assert.equal(alias.text, canonical.text);
  assert.ok(alias.headers.get('deprecation'));
  assert.match(alias.headers.get('link') ?? '', /<\/api\/v1\/cities\/frankfurt-am-main\/parking>; rel="successor-version"/);
});

test('without certificate or subscription: disabled naming what is missing, per city', async () => {
  for (const city of ['frankfurt-am-main', 'magdeburg', 'wuppertal']) {
    const r = await ctx.keyless.get(`/api/v1/cities/${city}/parking`);
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'disabled');
    assert.match(str(r.json, 'meta.disabled_reason'), /MOBILITHEK_CERT_PATH, MOBILITHEK_CERT_PASSWORD, [A-Z]+_PARKING_STATIC_SUBSCRIPTION_ID/);
  }
  // Only Wuppertal's subscriptions missing: Frankfurt answers, Wuppertal is disabled naming its two ids.
  const partial = { ...CREDENTIALS };
  delete partial.WUPPERTAL_PARKING_STATIC_SUBSCRIPTION_ID;
  delete partial.WUPPERTAL_PARKING_DYNAMIC_SUBSCRIPTION_ID;
  await fresh(async (app) => {
    const w = await app.get('/api/v1/cities/wuppertal/parking');
    assert.equal(at(w.json, 'meta.source_status'), 'disabled');
    assert.equal(
      str(w.json, 'meta.disabled_reason'),
      'server credentials missing: WUPPERTAL_PARKING_STATIC_SUBSCRIPTION_ID, WUPPERTAL_PARKING_DYNAMIC_SUBSCRIPTION_ID',
    );
    const f = await app.get('/api/v1/cities/frankfurt-am-main/parking');
    assert.equal(at(f.json, 'meta.source_status'), 'ok');
  }, partial);
  assert.equal(fake.count('/mobilithek/api/v1.0/subscription'), 0);
});

test('HTTP 422 (subscription without data) and an empty 200 are no_data', async () => {
  fake.get(PULL_PATHS.container, { status: 422, body: '' });
  const a = await fresh((app) => app.get('/api/v1/cities/frankfurt-am-main/parking'));
  assert.equal(a.status, 200);
  assert.equal(at(a.json, 'meta.source_status'), 'no_data');
  assert.match(str(a.json, 'meta.reason'), /422/);
  fake.get(PULL_PATHS.path, { status: 200, body: '', gzip: true });
  const b = await fresh((app) => app.get('/api/v1/cities/wuppertal/parking'));
  assert.equal(at(b.json, 'meta.source_status'), 'no_data');
});

test('a frozen feed (newest value older than 48 h) is no_data with the reason, never shown as live', async () => {
  // The recording as it is: its newest value is from 2023.
  fake.get(PULL_PATHS.path, (_req, url) =>
    url.searchParams.get('subscriptionID')?.includes('dynamic') ? { file: V2_STATUS, gzip: true } : { file: V2_TABLE, gzip: true },
  );
  const r = await fresh((app) => app.get('/api/v1/cities/magdeburg/parking'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /not been updated since 2023-10-07T03:45:13\+02:00 \(more than 48 h\)/);
  assert.equal(at(r.json, 'meta.feed_updated_at'), '2023-10-07T03:45:13+02:00');
});

test('malformed XML and an entity declaration are a 503 problem, never a 500, nothing echoed', async () => {
  const bodies = [
    '<?xml version="1.0"?><!DOCTYPE messageContainer [<!ENTITY x SYSTEM "file:///etc/passwd">]><messageContainer>&x;</messageContainer>',
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><messageContainer><payload>&b;</payload></messageContainer>',
    fixture('mobilithek/frankfurt-parking-v3-status.xml').toString().slice(0, 900),
    'not xml at all',
  ];
  for (const body of bodies) {
    fake.get(PULL_PATHS.container, { body: gzipSync(body), headers: { 'content-encoding': 'gzip', 'content-type': 'application/xml' } });
    const r = await fresh((app) => app.get('/api/v1/cities/frankfurt-am-main/parking'));
    assert.equal(r.status, 503, body.slice(0, 40));
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    assert.doesNotMatch(r.text, /passwd|ENTITY|127\.0\.0\.1/);
  }
});

test('a publication of another kind is a 503; a static table that cannot be read leaves the live counts without name and position', async () => {
  fake.get(PULL_PATHS.container, { file: 'mobilithek/hannover-situation-publication.xml', gzip: true });
  const wrong = await fresh((app) => app.get('/api/v1/cities/frankfurt-am-main/parking'));
  assert.equal(wrong.status, 503);
  assert.equal(at(wrong.json, 'code'), 'upstream_unavailable');
  const dynamicOnly = registerDynamicOnly();
  const r = await fresh((app) => app.get('/api/v1/cities/frankfurt-am-main/parking'));
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.match(str(r.json, 'meta.static_table'), /could not be read \(parse\)/);
  assert.equal(sites(r.json).length, 3, 'the three status records');
  assert.equal(byId(r.json, 'FFM-P001')?.free_spaces, 125);
  assert.equal(byId(r.json, 'FFM-P001')?.name, null);
  assert.equal(byId(r.json, 'FFM-P001')?.occupancy_share, 0.75, 'from the percentage: no capacity without the table');
  assert.ok(dynamicOnly.staticPulls > 0);
});

/** Frankfurt's status as recorded by the fake route, but a broken static table. */
function registerDynamicOnly() {
  const counter = { staticPulls: 0 };
  const normal = fixture('mobilithek/frankfurt-parking-v3-status.xml').toString('utf8');
  fake.get(PULL_PATHS.container, (_req, url): Reply => {
    if (url.searchParams.get('subscriptionID')?.includes('static')) {
      counter.staticPulls++;
      return { body: gzipSync('<messageContainer><payload'), headers: { 'content-encoding': 'gzip', 'content-type': 'application/xml' } };
    }
    return { body: replayXmlAsCurrent(normal), headers: { 'content-type': 'application/xml' }, gzip: true };
  });
  return counter;
}
