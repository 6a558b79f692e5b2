import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerMobilithek, MOBILITHEK_CERT_ENV } from './fixtures/mobilithek/routes.ts';
import { register as registerAutobahn } from './fixtures/autobahn/routes.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, str } from './helpers/json.ts';
import { nth } from './helpers/must.ts';
import { CITY_BY_SLUG } from '../src/cities/register.ts';
import { readDatex } from '../src/sources/mobilithek/datex2.ts';
import { parseSituationRecord } from '../src/sources/mobilithek/situation.ts';
import { parseSiteMeasurements } from '../src/sources/mobilithek/measured.ts';
import { DEPRECATED_SINCE } from '../src/http/deprecation.ts';

/** The subscriptions as the demo configures them (the fixture route picks the feed by id). */
const CREDENTIALS = {
  ...MOBILITHEK_CERT_ENV,
  HANNOVER_TRAFFIC_SUBSCRIPTION_ID: 'hannover_traffic_subscription_id',
  KIEL_COUNTING_SUBSCRIPTION_ID: 'kiel_counting_subscription_id',
  KOELN_LEZ_SUBSCRIPTION_ID: 'koeln_lez_subscription_id',
};

const ctx = useFakeApp(
  (fake) => {
    registerAutobahn(fake);
    registerMobilithek(fake);
  },
  { env: CREDENTIALS, keyless: true },
);
const { fake } = ctx;
const PULL = /^\/mobilithek\/api\/v1\.0\/subscription\/[^/]+\/clientPullService$/;

async function fresh<T>(run: (app: Awaited<ReturnType<typeof startApp>>) => Promise<T>): Promise<T> {
  const app = await startApp({ ...fakeEnv(fake.url), ...CREDENTIALS });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

const xml = (file: string) => fixture(`mobilithek/${file}`);

test('DATEX II reader: situation records with prefixes dropped, xsi:type as type, publication and its time', () => {
  const d = readDatex(xml('hannover-situation-publication.xml'), 'situationRecord');
  assert.equal(d.publication, 'SituationPublication');
  assert.equal(d.publicationTime, '2026-06-12T08:15:00+02:00');
  assert.equal(d.records.length, 4);
  const hannover = CITY_BY_SLUG.get('hannover')!;
  const works = parseSituationRecord(nth(d.records, 0), 'mobilithek-hannover', hannover);
  assert.equal(works.type, 'roadworks');
  assert.equal(works.id, 'LHH-2026-0412-1');
  assert.equal(works.start, '2026-06-01T07:00:00+02:00');
  assert.equal(works.end, '2026-07-31T18:00:00+02:00');
  assert.match(works.description[0] ?? '', /^Hildesheimer Straße/);
  assert.equal(works.lat, 52.35912);
  const closed = parseSituationRecord(nth(d.records, 1), 'mobilithek-hannover', hannover);
  assert.equal(closed.type, 'closure');
  assert.equal(closed.blocked, true);
  assert.equal(closed.lat, 52.37533, 'start point of a linear location');
  assert.equal(parseSituationRecord(nth(d.records, 2), 'x', hannover).type, 'warning');
  // the same publication with ns2: prefixes reads the same
  const prefixed = xml('hannover-situation-publication.xml')
    .toString()
    .replace(/<(\/?)(?!\?)([a-zA-Z])/g, '<$1ns2:$2')
    .replace('xmlns="', 'xmlns:ns2="')
    .replace(/xsi:type="/g, 'xsi:type="ns2:');
  const p = readDatex(Buffer.from(prefixed), 'situationRecord');
  assert.equal(p.records.length, 4);
  assert.equal(nth(p.records, 1).attrs.type, 'RoadOrCarriagewayOrLaneManagement');
});

test('DATEX II reader refuses DOCTYPE/ENTITY declarations and broken XML', () => {
  const evil = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><d2LogicalModel><x>&b;</x></d2LogicalModel>';
  assert.throws(() => readDatex(Buffer.from(evil), 'x'), /DOCTYPE\/ENTITY/);
  assert.throws(() => readDatex(Buffer.from('<d2LogicalModel><a></d2LogicalModel>'), 'a'), /not well-formed/);
  assert.throws(() => readDatex(Buffer.from('<d2LogicalModel>&xxe;</d2LogicalModel>'), 'a'), /not well-formed/);
});

test('measured data: flow and speed per site', () => {
  const d = readDatex(xml('kiel-measured-data-publication.xml'), 'siteMeasurements');
  assert.equal(d.publication, 'MeasuredDataPublication');
  const s = parseSiteMeasurements(nth(d.records, 0), d.publicationTime);
  assert.equal(s.id, 'KI-DZ-0101');
  assert.equal(s.measured_at, '2026-06-12T09:00:00+02:00');
  assert.equal(s.vehicle_flow_per_hour, 1160);
  assert.equal(s.average_speed_kmh, 41.5);
  assert.deepEqual(
    s.values.map((v) => v.kind),
    ['flow', 'flow', 'speed'],
  );
});

test('GET /live/hannover/traffic-reports: records within the radius, gzip pull with the subscription id, as_of from the publication', async () => {
  const r = await ctx.app.get('/api/v1/live/hannover/traffic-reports');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const items = list<{ type: string; source: string }>(r.json, 'data');
  assert.deepEqual(
    items.map((e) => e.type),
    ['roadworks', 'closure', 'warning'],
    'the Nienburg record (55 km) is left out',
  );
  assert.ok(items.every((e) => e.source === 'mobilithek-hannover'));
  assert.equal(at(r.json, 'meta.as_of'), '2026-06-12T08:15:00+02:00');
  const q = nth(fake.requests, 0);
  assert.equal(new URL(q.url, 'http://x').searchParams.get('subscriptionID'), 'hannover_traffic_subscription_id');
  assert.match(String(q.headers['accept-encoding']), /gzip/);
});

test('GET /live/kiel/counting-stations and /live/koeln/low-emission-zone', async () => {
  const k = await ctx.app.get('/api/v1/live/kiel/counting-stations');
  assert.equal(at(k.json, 'meta.source_status'), 'ok');
  assert.equal(list(k.json, 'data').length, 2);
  assert.equal(at(k.json, 'data.1.vehicle_flow_per_hour'), 281);
  const z = await ctx.app.get('/api/v1/live/koeln/low-emission-zone');
  assert.equal(at(z.json, 'meta.source_status'), 'ok');
  assert.equal(at(z.json, 'data.0.name'), 'Umweltzone Köln');
  assert.equal(list(z.json, 'data.0.rules').length, 2);
  assert.equal(at(z.json, 'data.0.start'), '2008-01-01T00:00:00+01:00');
  assert.equal(at(z.json, 'data.0.end'), null);
});

test('without certificate and subscription: disabled, meta.disabled_reason names the missing settings, no request', async () => {
  for (const p of ['/api/v1/live/hannover/traffic-reports', '/api/v1/live/kiel/counting-stations', '/api/v1/live/koeln/low-emission-zone']) {
    const r = await ctx.keyless.get(p);
    assert.equal(r.status, 200);
    assert.equal(at(r.json, 'meta.source_status'), 'disabled');
    assert.equal(at(r.json, 'data'), null);
    assert.match(str(r.json, 'meta.disabled_reason'), /MOBILITHEK_CERT_PATH, MOBILITHEK_CERT_PASSWORD, \w+_SUBSCRIPTION_ID/);
  }
  assert.equal(fake.count('/mobilithek/'), 0);
  // Hannover's live incidents then come from the motorway feed alone.
  const inc = await ctx.keyless.get('/api/v1/live/hannover/incidents');
  assert.equal(inc.status, 200);
  assert.deepEqual(at(inc.json, 'meta.city_feed'), { type: 'traffic-reports-hannover', events: 0 });
});

test('an active subscription without data (422, empty 200) is no_data', async () => {
  fake.get(PULL, { status: 422, body: '' });
  const a = await fresh((app) => app.get('/api/v1/live/kiel/counting-stations'));
  assert.equal(a.status, 200);
  assert.equal(at(a.json, 'meta.source_status'), 'no_data');
  fake.get(PULL, { status: 200, body: '', gzip: true });
  const b = await fresh((app) => app.get('/api/v1/live/hannover/traffic-reports'));
  assert.equal(at(b.json, 'meta.source_status'), 'no_data');
});

test('an entity declaration, broken XML, a wrong publication or a 500 is a 503 problem, never a 500', async () => {
  const bodies = [
    '<?xml version="1.0"?><!DOCTYPE d2LogicalModel [<!ENTITY x SYSTEM "file:///etc/passwd">]><d2LogicalModel>&x;</d2LogicalModel>',
    '<d2LogicalModel><payloadPublication xsi:type="SituationPublication"><situationRecord>',
    xml('kiel-measured-data-publication.xml').toString(),
    'not xml at all',
  ];
  for (const body of bodies) {
    fake.get(PULL, { body: gzipSync(body), headers: { 'content-encoding': 'gzip', 'content-type': 'application/xml' } });
    const r = await fresh((app) => app.get('/api/v1/live/hannover/traffic-reports'));
    assert.equal(r.status, 503, body.slice(0, 40));
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    assert.doesNotMatch(r.text, /passwd|127\.0\.0\.1/);
  }
  fake.get(PULL, { status: 500, body: 'x' });
  const down = await fresh((app) => app.get('/api/v1/live/koeln/low-emission-zone'));
  assert.equal(down.status, 503);
});

test('the three German aliases answer like their successors, with Deprecation and Link, also when disabled', async () => {
  const pairs: [string, string][] = [
    ['/api/v1/live/hannover/verkehrsmeldungen', '/api/v1/live/hannover/traffic-reports'],
    ['/api/v1/live/kiel/zaehlstellen', '/api/v1/live/kiel/counting-stations'],
    ['/api/v1/live/koeln/umweltzone', '/api/v1/live/koeln/low-emission-zone'],
  ];
  for (const [alias, successor] of pairs) {
    await ctx.app.get(successor);
    const a = await ctx.app.get(alias);
    const s = await ctx.app.get(successor);
    assert.equal(a.text, s.text, alias);
    assert.equal(a.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
    assert.equal(a.headers.get('link'), `<${successor}>; rel="successor-version"`);
    const off = await ctx.keyless.get(alias);
    const offSucc = await ctx.keyless.get(successor);
    assert.equal(off.text, offSucc.text);
    assert.equal(at(off.json, 'meta.source_status'), 'disabled');
    assert.equal(off.headers.get('link'), `<${successor}>; rel="successor-version"`);
  }
});

test('https base URL: the certificate file is read for mutual TLS; an unreadable or invalid certificate is a 503, never a 500', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-mtls-'));
  const garbage = join(dir, 'cert.p12');
  writeFileSync(garbage, 'not a PKCS#12 file');
  for (const certPath of [join(dir, 'missing.p12'), garbage]) {
    const app = await startApp({
      ...fakeEnv(fake.url),
      ...CREDENTIALS,
      MOBILITHEK_CERT_PATH: certPath,
      MOBILITHEK_KIEL_BASE_URL: 'https://127.0.0.1:9/mobilithek/api/v1.0',
    });
    try {
      const r = await app.get('/api/v1/live/kiel/counting-stations');
      assert.equal(r.status, 503, certPath);
      assert.equal(at(r.json, 'code'), 'upstream_unavailable');
      assert.doesNotMatch(r.text, /cert\.p12|missing\.p12|stadtdaten-mtls/);
    } finally {
      await app.close();
    }
  }
});
