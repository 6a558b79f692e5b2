import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { register as registerAutobahn, registerRecordedWarnings } from './fixtures/autobahn/routes.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, num, obj, str } from './helpers/json.ts';
import { nth } from './helpers/must.ts';
import { CITY_BY_SLUG, CITIES } from '../src/cities/register.ts';
import { lineTime, parseEvent, parseWebcam, positionOf, type AutobahnItem } from '../src/sources/autobahn/items.ts';
import { CITY_ROADS } from '../src/sources/autobahn/snapshot.ts';
import { AUTOBAHN } from '../src/sources/autobahn/source.ts';
import { DEPRECATED_SINCE } from '../src/http/deprecation.ts';

const ctx = useFakeApp(registerAutobahn);
const { fake } = ctx;

/** A fresh app (empty cache) for tests whose upstream failures must not meet lists cached by earlier tests. */
async function fresh<T>(run: (app: Awaited<ReturnType<typeof startApp>>) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
  const app = await startApp({ ...fakeEnv(fake.url), ...env });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

const item = (file: string) => JSON.parse(fixture(`autobahn/${file}`).toString('utf8')) as AutobahnItem;
const city = (slug: string) => {
  const c = CITY_BY_SLUG.get(slug);
  assert.ok(c, slug);
  return c;
};

interface Ev {
  id: string;
  type: string;
  source: string;
  road: string;
  start: string | null;
  delay_minutes: number | null;
}

test('city->roads map: every register city has its motorways', () => {
  assert.equal(Object.keys(CITY_ROADS).length, CITIES.length);
  for (const c of CITIES) {
    const roads = CITY_ROADS[c.slug];
    assert.ok(roads && roads.length > 0, c.slug);
    for (const r of roads) assert.match(r, /^A\d{1,3}[a-z]?$/, `${c.slug}: ${r}`);
  }
  assert.deepEqual(CITY_ROADS.berlin, ['A10', 'A11', 'A100', 'A103', 'A111', 'A113', 'A114', 'A115', 'A117']);
});

test('parser: 2026 item (numeric lat/long, Z timestamp, delay as string, GeoJSON geometry)', () => {
  const e = parseEvent(item('item_warning_A1_koeln_2026-03-29.json'), 'warning', 'A1', city('koeln'));
  assert.equal(e.id, 'INRIX--vi-zus.2026-03-29_12-42-24-000.de0');
  assert.equal(e.road, 'A1');
  assert.equal(e.title, 'A1 | Köln-Bocklemünd - Köln-Lövenich');
  assert.equal(e.direction, 'Köln -> Euskirchen');
  // 12:42:24Z on 29 March 2026 is after the switch to summer time (01:00Z): 14:42:24+02:00
  assert.equal(e.start, '2026-03-29T14:42:24+02:00');
  assert.equal(e.end, null);
  assert.equal(e.blocked, false);
  assert.equal(e.future, false);
  assert.equal(e.delay_minutes, 22);
  assert.equal(e.abnormal_traffic, 'UNSPECIFIED_ABNORMAL_TRAFFIC');
  assert.equal(e.lat, 50.97550173680195);
  assert.equal(e.lon, 6.850192886597498);
  assert.ok(e.distance_km !== null && e.distance_km > 5 && e.distance_km < 10);
  assert.equal(e.geometry?.type, 'LineString');
  assert.deepEqual(e.geometry?.coordinates[0], [6.850192887, 50.975501737]);
  assert.equal(e.description.length, 5, 'empty lines dropped');
  // the raw camelCase fields, unchanged
  assert.equal(e.raw?.isBlocked, 'false');
  assert.equal(e.raw?.delayTimeValue, '22');
  assert.equal(e.raw?.startTimestamp, '2026-03-29T12:42:24Z');
  assert.equal(e.raw?.geometry, undefined);
});

test('parser: 2021 items (string coordinates, lon,lat point, +0200 offsets, German start/end lines)', () => {
  const closure = parseEvent(item('details_closure_A1_2021-08.json'), 'closure', 'A1', city('osnabrueck'));
  assert.equal(closure.lat, 52.341633);
  assert.equal(closure.lon, 8.020043);
  assert.equal(closure.start, '2021-08-30T19:00:00+02:00');
  assert.equal(closure.end, '2021-09-03T06:00:00+02:00');
  assert.equal(closure.future, true);
  assert.equal(closure.length_km, 6.38);
  assert.equal(closure.direction, 'Osnabrück Richtung Bremen');
  const works = parseEvent(item('details_roadworks_A1_2021-08.json'), 'roadworks', 'A1', city('luebeck'));
  assert.equal(works.end, '2021-11-28T17:00:00+01:00', 'November is winter time');
  assert.equal(works.max_width_m, 3.25);
  const l3002 = JSON.parse(fixture('autobahn/services_closure_L3002_2024-01_first1.json').toString()) as { closure: AutobahnItem[] };
  const c = parseEvent(nth(l3002.closure, 0), 'closure', 'L3002', city('frankfurt-am-main'));
  assert.equal(c.road, 'L3002');
  assert.equal(c.start, '2023-11-13T00:00:00+01:00');
  assert.equal(c.end, '2024-03-22T23:59:00+01:00');
  assert.ok(c.distance_km !== null && c.distance_km < 10);
});

test('parser: coordinates in either order, point fallback, "true" strings, delay from the text', () => {
  assert.deepEqual(positionOf({ coordinate: { lat: '8.02', long: '52.34' } }), { lat: 52.34, lon: 8.02 });
  assert.deepEqual(positionOf({ point: '50.9755,6.8501' }), { lat: 50.9755, lon: 6.8501 });
  assert.deepEqual(positionOf({ point: '6.8501,50.9755' }), { lat: 50.9755, lon: 6.8501 });
  assert.equal(positionOf({ coordinate: { lat: 'x', long: null } }), null);
  const e = parseEvent(
    { isBlocked: 'true', future: 'false', description: ['Beginn: 01.02.26 um 7:05 Uhr', '- Reisezeitverlust: 15 Minuten'], title: 'A 3 | x' },
    'warning',
    'A3',
    city('koeln'),
  );
  assert.equal(e.blocked, true);
  assert.equal(e.future, false);
  assert.equal(e.delay_minutes, 15);
  assert.equal(e.start, '2026-02-01T07:05:00+01:00');
  assert.equal(e.road, 'A3');
  assert.equal(e.lat, null);
  assert.equal(lineTime(['Ende: 31.12.2025'], 'Ende'), '2025-12-31T00:00:00+01:00');
  const cam = parseWebcam(item('details_webcam_A1_2021-08.json'), 'A1', city('koeln'));
  assert.equal(cam.name, 'ID005 AK Köln-Nord');
  assert.equal(cam.operator, 'NRW');
  assert.match(cam.image_url ?? '', /^https:\/\/www\.verkehr\.nrw\/webcams\/\d+\.jpg$/);
});

test('GET road-events hamburg: the A1 warning within 30 km, every road of the map asked once per service', async () => {
  const r = await ctx.app.get('/api/v1/cities/hamburg/road-events');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const events = list<Ev>(r.json, 'data');
  assert.equal(events.length, 1);
  const e = nth(events, 0);
  assert.equal(e.type, 'warning');
  assert.equal(e.source, 'autobahn');
  assert.equal(e.start, '2021-08-29T11:46:38+02:00');
  assert.equal(at(r.json, 'data.0.raw.isBlocked'), 'false');
  assert.equal(at(r.json, 'data.0.art'), 'warning', 'deprecated twin of type');
  assert.deepEqual(at(r.json, 'meta.roads'), CITY_ROADS.hamburg);
  assert.equal(at(r.json, 'meta.failed_roads'), undefined);
  assert.equal(fake.count('/o/autobahn/'), (CITY_ROADS.hamburg?.length ?? 0) * 3);
  assert.equal(fake.count('/o/autobahn/A1/services/warning'), 1);
});

test('road lists are shared: traffic and incidents after road-events ask the upstream nothing more', async () => {
  await ctx.app.get('/api/v1/cities/osnabrueck/road-events');
  const before = fake.count('/o/autobahn/');
  const t = await ctx.app.get('/api/v1/live/osnabrueck/traffic');
  const i = await ctx.app.get('/api/v1/live/osnabrueck/incidents');
  assert.equal(at(t.json, 'data.counts.closure'), 1);
  assert.equal(at(i.json, 'data.0.type'), 'closure');
  assert.equal(fake.count('/o/autobahn/'), before);
});

/** Peak of road requests in flight while Essen's road events are fetched by a fresh app with `env`. */
async function essenPeak(env: Record<string, string> = {}): Promise<number> {
  let inFlight = 0;
  let peak = 0;
  fake.get(/^\/o\/autobahn\/[^/]+\/services\/(roadworks|warning|closure)$/, async (_req, url) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setTimeout(r, 20));
    inFlight--;
    return { json: { [url.pathname.split('/').at(-1)!]: [] } };
  });
  const r = await fresh((app) => app.get('/api/v1/cities/essen/road-events'), env);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(fake.count('/o/autobahn/'), (CITY_ROADS.essen?.length ?? 0) * 3);
  return peak;
}

test('bounded concurrency: a Ruhr city asks 15 roads x 3 services, at most 8 at a time', async () => {
  const peak = await essenPeak();
  assert.equal(AUTOBAHN.limits?.ROAD_CONCURRENCY?.default, 8);
  assert.ok(peak <= 8, `peak ${peak}`);
  assert.ok(peak > 2, 'requests do run in parallel, more than the smaller setting below allows');
});

test('AUTOBAHN_ROAD_CONCURRENCY lowers the bound', async () => {
  const peak = await essenPeak({ AUTOBAHN_ROAD_CONCURRENCY: '2' });
  assert.ok(peak <= 2, `peak ${peak}`);
  assert.equal(peak, 2);
});

test('AUTOBAHN_RADIUS_KM: a smaller radius drops the A1 warning 21 km from Hamburg', async () => {
  const r = await fresh((app) => app.get('/api/v1/cities/hamburg/road-events'), { AUTOBAHN_RADIUS_KM: '15' });
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'meta.radius_km'), 15);
  assert.match(str(r.json, 'meta.reason'), /within 15 km/);
  const d = await ctx.app.get('/api/v1/cities/hamburg/road-events');
  assert.equal(at(d.json, 'meta.radius_km'), 30);
  assert.equal(list(d.json, 'data').length, 1);
});

test('a limit outside its range is a configuration error', async () => {
  await assert.rejects(
    fresh(async () => null, { AUTOBAHN_RADIUS_KM: '0' }),
    /AUTOBAHN_RADIUS_KM must be between 1 and 100/,
  );
});

test('no event within the radius is no_data with a reason (Berlin has no A1)', async () => {
  const r = await ctx.app.get('/api/v1/cities/berlin/road-events');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.reason'), /30 km/);
  const w = await ctx.app.get('/api/v1/live/berlin/webcams');
  assert.equal(at(w.json, 'meta.source_status'), 'no_data');
});

test('an unreachable road is left out and named in meta.failed_roads; the rest is answered', async () => {
  fake.get('/o/autobahn/A7/services/warning', { status: 502, body: 'bad gateway' });
  fake.get('/o/autobahn/A261/services/roadworks', { body: '<html>not json</html>', headers: { 'content-type': 'text/html' } });
  const r = await fresh((app) => app.get('/api/v1/live/hamburg/traffic'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(at(r.json, 'meta.failed_roads'), ['A7', 'A261']);
  assert.equal(num(r.json, 'data.counts.warning'), 1);
});

test('a 204 or empty body for a road is an empty list, not a failure', async () => {
  fake.get('/o/autobahn/A7/services/closure', { status: 204 });
  fake.get('/o/autobahn/A21/services/closure', { body: '' });
  const r = await fresh((app) => app.get('/api/v1/live/hamburg/incidents'));
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.failed_roads'), undefined);
});

test('every road failing is a 503 problem, never a 500 or an empty ok', async () => {
  fake.get(/^\/o\/autobahn\//, { body: 'garbage{', headers: { 'content-type': 'application/json' } });
  const r = await fresh((app) => app.get('/api/v1/cities/kiel/road-events'));
  assert.equal(r.status, 503);
  assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  assert.doesNotMatch(r.text, /at .*\.ts|127\.0\.0\.1/);
  fake.mode = 'down';
  const w = await fresh((app) => app.get('/api/v1/live/kiel/webcams'));
  assert.equal(w.status, 503);
});

test('a list that is not a list is a failed road; with nothing found elsewhere it is format drift naming it, never no_data', async () => {
  fake.get('/o/autobahn/A1/services/warning', { json: { warning: { not: 'a list' } } });
  const [r, sources] = await fresh(async (app) => [await app.get('/api/v1/live/hamburg/incidents'), await app.get('/api/v1/sources?limit=all')]);
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  const row = list<{ source: string; format_drift: { first_error: string } | null }>(sources.json, 'data').find((s) => s.source === 'autobahn');
  assert.equal(row?.format_drift?.first_error, 'Autobahn A1 warning $.warning: expected array, received object');
});

test('traffic: warnings with delay, largest first, and counts per kind (Köln: the 2026 warning)', async () => {
  const r = await ctx.app.get('/api/v1/live/koeln/traffic');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(num(r.json, 'meta.refresh_seconds'), 240);
  assert.deepEqual(obj(r.json, 'data.counts'), { warning: 1, roadworks: 0, closure: 0, blocked: 0 });
  assert.equal(at(r.json, 'data.max_delay_minutes'), 22);
  assert.equal(at(r.json, 'data.warnings.0.delay_minutes'), 22);
  assert.equal(at(r.json, 'data.warnings.0.raw.abnormalTrafficType'), 'UNSPECIFIED_ABNORMAL_TRAFFIC');
});

test('webcams: Köln camera with image and stream links; cached for hours', async () => {
  const r = await fresh((app) => app.get('/api/v1/live/koeln/webcams'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'data.0.road'), 'A1');
  assert.equal(at(r.json, 'data.0.direction'), 'Blickrichtung Dortmund');
  assert.match(str(r.json, 'data.0.link_url'), /^https:\/\//);
  assert.equal(at(r.json, 'meta.refresh_seconds'), 21600, 'the camera list is refreshed every six hours');
  assert.equal(fake.count('/o/autobahn/'), CITY_ROADS.koeln?.length ?? 0, 'webcam service only');
});

test('roadworks: Lübeck A1 roadworks; incidents leave roadworks out', async () => {
  const r = await ctx.app.get('/api/v1/live/luebeck/roadworks');
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.deepEqual(
    list<Ev>(r.json, 'data').map((e) => e.type),
    ['roadworks'],
  );
  const i = await ctx.app.get('/api/v1/live/luebeck/incidents');
  assert.equal(at(i.json, 'meta.source_status'), 'no_data');
});

test('deprecated aliases answer the successor body with Deprecation and Link on every status', async () => {
  const pairs: [string, string][] = [
    ['/api/v1/live/luebeck/baustellen', '/api/v1/live/luebeck/roadworks'],
    ['/api/v1/live/hamburg/ereignisse', '/api/v1/live/hamburg/incidents'],
    ['/api/v1/cities/hamburg/traffic', '/api/v1/live/hamburg/traffic'],
    ['/api/v1/cities/koeln/webcams', '/api/v1/live/koeln/webcams'],
  ];
  for (const [alias, successor] of pairs) {
    await ctx.app.get(successor);
    const a = await ctx.app.get(alias);
    const s = await ctx.app.get(successor);
    assert.equal(a.status, 200);
    assert.equal(a.text, s.text, `${alias} body equals ${successor}`);
    assert.equal(a.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
    assert.equal(a.headers.get('link'), `<${successor}>; rel="successor-version"`);
    assert.equal(s.headers.get('deprecation'), null);
  }
  const tolerant = await ctx.app.get('/api/v1/live/L%C3%BCbeck/baustellen');
  assert.equal(tolerant.headers.get('link'), '</api/v1/live/luebeck/roadworks>; rel="successor-version"');
  const unknown = await ctx.app.get('/api/v1/live/atlantis/ereignisse');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers.get('link'), '</api/v1/live/atlantis/incidents>; rel="successor-version"');
  fake.mode = 'error';
  const down = await fresh((app) => app.get('/api/v1/live/bremen/baustellen'));
  assert.equal(down.status, 503);
  assert.equal(down.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
});

test('switched off: every motorway type answers disabled with the reason', async () => {
  const app = await startApp({ ...fakeEnv(fake.url), AUTOBAHN_ENABLED: 'false' });
  try {
    for (const p of ['/api/v1/cities/hamburg/road-events', '/api/v1/live/hamburg/traffic', '/api/v1/live/koeln/webcams', '/api/v1/live/hamburg/incidents']) {
      const r = await app.get(p);
      assert.equal(r.status, 200);
      assert.equal(at(r.json, 'meta.source_status'), 'disabled', p);
      assert.match(str(r.json, 'meta.disabled_reason'), /AUTOBAHN_ENABLED/);
    }
    assert.equal(fake.count('/o/autobahn/'), 0);
  } finally {
    await app.close();
  }
});

test('the recorded A1 warning list (2026-10-03): averageSpeed and delay as strings, an accident without delay, each warning for its own city', async () => {
  registerRecordedWarnings(fake);
  await fresh(async (app) => {
    const hamburg = await app.get('/api/v1/live/hamburg/traffic');
    assert.equal(at(hamburg.json, 'meta.source_status'), 'ok');
    const warnings = list<Record<string, unknown>>(hamburg.json, 'data.warnings');
    const byTitle = (t: string) => warnings.find((w) => String(w.title ?? '').includes(t) || JSON.stringify(w).includes(t));
    const queue = byTitle('Bargteheide - Ahrensburg');
    const slow = byTitle('Bargteheide - Barnitztal');
    assert.equal(queue?.delay_minutes, 18, 'delayTimeValue "18"');
    assert.equal(at(queue, 'raw.abnormalTrafficType'), 'QUEUING_TRAFFIC');
    assert.equal(slow?.delay_minutes, 9);
    assert.equal(slow?.average_speed_kmh, 30, 'averageSpeed "30" read as a number');
    assert.equal(slow?.blocked, false, 'isBlocked "false"');
    assert.equal(at(hamburg.json, 'data.max_delay_minutes'), 18);
    assert.equal(byTitle('Hamm-Bockum/Werne'), undefined, "Hamm's accident is 250 km away: never Hamburg's");
    const hamm = await app.get('/api/v1/cities/hamm/road-events');
    assert.equal(at(hamm.json, 'meta.source_status'), 'ok');
    const events = list<Record<string, unknown>>(hamm.json, 'data');
    assert.equal(events.length, 1);
    assert.equal(events[0]?.start, '2026-10-03T04:13:28+02:00');
    assert.equal(events[0]?.delay_minutes, null, 'no delayTimeValue and no Reisezeitverlust line: null, not 0');
    assert.equal(events[0]?.average_speed_kmh, null);
    assert.equal(events[0]?.road, 'A1');
    assert.ok(!JSON.stringify(events).includes('Bargteheide'), "Hamburg's warnings are not Hamm's");
  });
});
