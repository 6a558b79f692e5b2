import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { useFakeApp } from './helpers/setup.ts';
import { get } from './helpers/app.ts';
import { fixtureSettings, registerAllFixtures } from './fixtures/index.ts';
import { at } from './helpers/json.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { examplePath } from '../src/core/data-type.ts';
import { num, record, text, z } from '../src/core/schema.ts';
import { csvChunks } from '../src/http/formats/csv.ts';
import { tableOf } from '../src/core/table.ts';

/**
 * CSV and GeoJSON beside JSON (docs/contract.md, "Formats"): how a request picks one, what
 * travels with the file, and that paging, ETags and the HIT lane work the same in every format.
 */
const ctx = useFakeApp(registerAllFixtures, { env: fixtureSettings(), keyless: true });
const heritage = examplePath(CATALOG.byType.get('heritage')!);
const weather = examplePath(CATALOG.byType.get('weather')!);
const url = (path: string) => ctx.app.url + path;
const csvRows = (text: string) => parse(text, { relax_column_count: false, relax_quotes: false, record_delimiter: '\r\n' }) as string[][];
const with_ = (path: string, q: string) => `${path}${path.includes('?') ? '&' : '?'}${q}`;

test('Accept picks the format by q-value; */* and no Accept give JSON; ?format= wins over Accept', async () => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{}, '', /^application\/json/],
    [{ accept: '*/*' }, '', /^application\/json/],
    [{ accept: 'text/csv;q=0.9, application/json;q=0.5' }, '', /^text\/csv/],
    [{ accept: 'application/json;q=0.4, application/geo+json' }, '', /^application\/geo\+json$/],
    [{ accept: 'text/*' }, '', /^text\/csv/],
    [{ accept: 'text/csv;q=0, */*;q=0.1' }, '', /^application\/json/],
    [{ accept: 'text/csv' }, 'format=json', /^application\/json/],
    [{}, 'format=geojson', /^application\/geo\+json$/],
  ];
  for (const [headers, q, type] of cases) {
    const r = await get(url(q ? with_(heritage, q) : heritage), headers);
    assert.equal(r.status, 200, JSON.stringify(headers) + q);
    assert.match(r.headers.get('content-type') ?? '', type, JSON.stringify(headers) + q);
  }
});

test('an Accept naming only types a route does not offer is a 406 problem listing the formats it offers', async () => {
  const r = await get(url(heritage), { accept: 'application/xml' });
  assert.equal(r.status, 406);
  assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(at(r.json, 'code'), 'not_acceptable');
  assert.deepEqual(at(r.json, 'formats'), ['json', 'csv', 'geojson']);
  const w = await get(url(weather), { accept: 'application/geo+json' });
  assert.equal(w.status, 406);
  assert.deepEqual(at(w.json, 'formats'), ['json', 'csv']);
});

test('an unknown format value is a 422 listing the allowed values, without echoing the value', async () => {
  const r = await get(url(with_(heritage, 'format=%3Cscript%3Ex')));
  assert.equal(r.status, 422);
  assert.equal(at(r.json, 'code'), 'invalid_parameter');
  assert.equal(at(r.json, 'parameter'), 'format');
  assert.deepEqual(at(r.json, 'allowed'), ['json', 'csv', 'geojson']);
  assert.doesNotMatch(r.text, /script/);
});

test('CSV carries status, time, licence and attribution as headers; GeoJSON as the members meta and attribution', async () => {
  const json = await get(url(heritage));
  const csv = await get(url(heritage), { accept: 'text/csv' });
  assert.equal(csv.headers.get('x-source-status'), 'ok');
  assert.equal(csv.headers.get('x-fetched-at'), at(json.json, 'meta.fetched_at'));
  assert.equal(decodeURIComponent(csv.headers.get('x-attribution')!), at(json.json, 'attribution.text'));
  assert.equal(csv.headers.get('x-license'), at(json.json, 'attribution.license'));
  assert.ok(csv.headers.get('link')?.includes(`<${String(at(json.json, 'attribution.license_url'))}>; rel="license"`));
  assert.match(csv.headers.get('access-control-expose-headers') ?? '', /X-Attribution/);
  const rows = csvRows(csv.text);
  assert.equal(rows.length - 1, (at(json.json, 'data') as unknown[]).length);
  const geo = await get(url(with_(heritage, 'format=geojson')));
  const fc = JSON.parse(geo.text) as {
    meta: Record<string, unknown>;
    attribution: unknown;
    features: { geometry: { coordinates: number[] }; properties: Record<string, unknown> }[];
  };
  assert.equal(fc.meta.source_status, 'ok');
  assert.deepEqual(fc.attribution, at(json.json, 'attribution'));
  const first = (at(json.json, 'data') as { lat: number; lon: number }[])[0]!;
  assert.deepEqual(fc.features[0]!.geometry.coordinates, [first.lon, first.lat]);
});

test('CSV columns come from the record schema: nested objects flattened with dots, deprecated twins left out, arrays as JSON text', async () => {
  const j = await get(url(weather));
  const rows = csvRows((await get(url(with_(weather, 'format=csv')))).text);
  const header = rows[0]!;
  assert.ok(header.includes('station.name'), header.join(','));
  assert.ok(!header.includes('station'));
  assert.equal(rows[1]![header.indexOf('station.name')], at(j.json, 'data.station.name'));
  const base = examplePath(CATALOG.byType.get('base')!);
  const data = at((await get(url(base))).json, 'data') as Record<string, unknown>;
  const baseHeader = csvRows((await get(url(with_(base, 'format=csv')))).text)[0]!;
  assert.ok('bezeichnung' in data, 'the JSON answer carries the deprecated twin of name');
  assert.deepEqual(
    baseHeader,
    Object.keys(data).filter((k) => k !== 'bezeichnung'),
  );
  const charging = csvRows((await get(url(with_(examplePath(CATALOG.byType.get('live-charging')!), 'format=csv')))).text);
  const plugs = charging[0]!.indexOf('plug_types');
  assert.ok(plugs >= 0);
  assert.ok(Array.isArray(JSON.parse(charging[1]![plugs]!)));
});

test('no_data, not_covered and disabled are a header-only CSV and an empty FeatureCollection with the status', async () => {
  const cases: [typeof ctx.app, string, string][] = [
    [ctx.app, '/api/v1/cities/koeln/charging-status', 'not_covered'],
    [ctx.keyless, examplePath(CATALOG.byType.get('fuel-prices')!), 'disabled'],
    [ctx.app, '/api/v1/cities/hamburg/public-toilets', 'no_data'],
  ];
  for (const [app, path, status] of cases) {
    const csv = await get(app.url + with_(path, 'format=csv'));
    assert.equal(csv.status, 200, path);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/, path);
    assert.equal(csv.headers.get('x-source-status'), status, path);
    const rows = csvRows(csv.text);
    assert.equal(rows.length, 1, `${path}: header row only`);
    assert.ok(rows[0]!.length > 3);
    const geo = await get(app.url + with_(path, 'format=geojson'));
    assert.equal(geo.headers.get('content-type'), 'application/geo+json', path);
    const fc = JSON.parse(geo.text) as { type: string; features: unknown[]; meta: { source_status: string } };
    assert.deepEqual([fc.type, fc.features.length, fc.meta.source_status], ['FeatureCollection', 0, status], path);
  }
});

test('problems stay application/problem+json whatever format was asked for', async () => {
  for (const [path, headers, status] of [
    ['/api/v1/cities/nowhere-x/heritage', { accept: 'text/csv' }, 404],
    ['/api/v1/cities/nowhere-x/heritage?format=geojson', {}, 404],
    [with_(heritage, 'format=csv&limit=0'), {}, 422],
  ] as const) {
    const r = await get(url(path), headers);
    assert.equal(r.status, status, path);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/, path);
  }
});

test('paging works the same in CSV: rows of the page, Link headers keeping format, X-Total-Count; limit=all gives every row', async () => {
  const all = (at((await get(url(heritage))).json, 'data') as unknown[]).length;
  assert.ok(all >= 3, `${all} items`);
  const page = await get(url(with_(heritage, 'format=csv&limit=2&page=1')));
  assert.equal(csvRows(page.text).length - 1, 2);
  assert.equal(page.headers.get('x-total-count'), String(all));
  const link = page.headers.get('link') ?? '';
  assert.match(link, /format=csv[^>]*page=2[^>]*>; rel="next"/);
  assert.match(link, /rel="license"/);
  const full = await get(url(with_(heritage, 'format=csv&limit=all')));
  assert.equal(csvRows(full.text).length - 1, all);
});

test('ETag differs per format, If-None-Match gives 304 in each, and every answer varies on Accept', async () => {
  const tags = new Set<string>();
  for (const accept of ['application/json', 'text/csv', 'application/geo+json']) {
    const r = await get(url(heritage), { accept });
    const etag = r.headers.get('etag')!;
    tags.add(etag);
    assert.match(r.headers.get('vary') ?? '', /Accept/);
    const again = await get(url(heritage), { accept, 'if-none-match': etag });
    assert.equal(again.status, 304, accept);
  }
  assert.equal(tags.size, 3);
});

test('the HIT lane never answers a CSV or GeoJSON request with its JSON bytes', async () => {
  const path = `/api/v1/cities/${String(CATALOG.byType.get('heritage')!.example.city)}/heritage`;
  // MISS, then a HIT that Fastify prepares and hands to the lane, then lane HITs.
  for (let i = 0; i < 3; i++) await get(url(path));
  const lanes = ctx.app.lane.size;
  assert.ok(lanes > 0, 'the URL is in the lane');
  const csv = await get(url(path), { accept: 'text/csv' });
  assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
  const geo = await get(url(path), { accept: 'application/json;q=0.1, application/geo+json' });
  assert.equal(geo.headers.get('content-type'), 'application/geo+json');
  const json = await get(url(path));
  assert.equal(json.headers.get('cache-status'), 'stadtdaten; hit');
  assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
});

test('compare answers CSV (a row per city) and GeoJSON (a point per city at its register position)', async () => {
  const path = '/api/v1/compare?resource=weather&cities=berlin,hamburg,freiburg-im-breisgau';
  const json = await get(url(path));
  const csv = await get(url(path), { accept: 'text/csv' });
  assert.equal(csv.status, 200);
  const rows = csvRows(csv.text);
  assert.equal(rows.length - 1, 3);
  assert.deepEqual(rows[0]!.slice(0, 2), ['city', 'source_status']);
  assert.ok(rows[0]!.includes('data.temperature_c'));
  assert.equal(csv.headers.get('x-source-status'), at(json.json, 'meta.source_status'));
  const geo = await get(url(with_(path, 'format=geojson')));
  const fc = JSON.parse(geo.text) as { features: { geometry: { type: string; coordinates: number[] }; properties: { city: string } }[] };
  assert.deepEqual(
    fc.features.map((f) => f.properties.city),
    ['berlin', 'hamburg', 'freiburg-im-breisgau'],
  );
  assert.equal(fc.features[0]!.geometry.type, 'Point');
  assert.notEqual(geo.headers.get('etag'), json.headers.get('etag'));
});

test('CSV rows: quotes what needs it, reads back cell for cell', () => {
  const schema = record({
    name: text('Name'),
    at: record({ lat: num('Latitude'), lon: num('Longitude') }).nullable(),
    tags: z.array(z.string()),
    ok: z.boolean(),
  });
  const rows = [
    { name: 'Kiosk "Am Ring", Köln; Nord\r\nzweite Zeile', at: { lat: 50.9, lon: 6.9 }, tags: ['a', 'b,c'], ok: true },
    { name: null, at: null, tags: [], ok: false },
  ];
  const back = csvRows([...csvChunks(tableOf(schema).columns, rows)].join(''));
  assert.deepEqual(back, [
    ['name', 'at.lat', 'at.lon', 'tags', 'ok'],
    ['Kiosk "Am Ring", Köln; Nord\r\nzweite Zeile', '50.9', '6.9', '["a","b,c"]', 'true'],
    ['', '', '', '[]', 'false'],
  ]);
});

test('OpenAPI lists the media types of every operation, the format parameter and the 406', async () => {
  const doc = (await get(url('/api/v1/openapi.json'))).json as {
    paths: Record<string, { get: { parameters: { $ref?: string }[]; responses: Record<string, Response> } }>;
    components: { parameters: Record<string, { schema: { enum: string[] } }>; responses: Record<string, Response> };
  };
  type Response = { $ref?: string; content?: Record<string, unknown> };
  // A data type's 200 is a shared response component.
  const ok = (path: string) => {
    const r = doc.paths[path]!.get.responses['200']!;
    return r.$ref ? doc.components.responses[r.$ref.split('/').pop()!]! : r;
  };
  const mediaOf = (path: string) => Object.keys(ok(path).content!).sort();
  const formatsOf = (path: string) => {
    const ref = doc.paths[path]!.get.parameters.map((p) => p.$ref ?? '').find((r) => r.includes('/Format'))!;
    return doc.components.parameters[ref.split('/').pop()!]!.schema.enum;
  };
  assert.deepEqual(mediaOf('/api/v1/cities/{city}/heritage'), ['application/geo+json', 'application/json', 'text/csv']);
  assert.deepEqual(formatsOf('/api/v1/cities/{city}/heritage'), ['json', 'csv', 'geojson']);
  assert.deepEqual(mediaOf('/api/v1/cities/{city}/weather'), ['application/json', 'text/csv']);
  assert.deepEqual(mediaOf('/api/v1/cities/{city}/demographics'), ['application/json']);
  assert.deepEqual(formatsOf('/api/v1/cities/{city}/demographics'), ['json']);
  assert.deepEqual(mediaOf('/api/v1/compare'), ['application/geo+json', 'application/json', 'text/csv']);
  for (const path of ['/api/v1/cities/{city}/heritage', '/api/v1/cities/{city}/demographics', '/api/v1/compare'])
    assert.ok(doc.paths[path]!.get.responses['406'], path);
});

test('a list of thousands of rows is streamed (chunked, no Content-Length) and still reads back row for row', async () => {
  const rows = 2500;
  const stations = Array.from({ length: rows }, (_, i) => ({
    id: `s-${i}`,
    name: `Tankstelle ${i}, "Nord"`,
    brand: 'ARAL',
    street: 'Hanauer Landstraße',
    place: 'Frankfurt',
    lat: 50.1 + i / 100000,
    lng: 8.6,
    dist: 1,
    price: 1.4,
    isOpen: true,
    houseNumber: String(i),
    postCode: 60314,
  }));
  ctx.fake.get('/json/list.php', { json: { ok: true, license: 'CC BY 4.0', data: 'MTS-K', status: 'ok', stations } });
  const path = '/api/v1/cities/frankfurt-am-main/fuel-prices?fuel=e5';
  const json = await get(url(path));
  assert.equal((at(json.json, 'data') as unknown[]).length, rows);
  const csv = await get(url(with_(path, 'format=csv&limit=all')));
  assert.equal(csv.headers.get('content-length'), null);
  assert.equal(csv.headers.get('transfer-encoding'), 'chunked');
  assert.equal(csvRows(csv.text).length - 1, rows);
  const geo = await get(url(with_(path, 'format=geojson')));
  assert.equal(geo.headers.get('transfer-encoding'), 'chunked');
  assert.equal((JSON.parse(geo.text) as { features: unknown[] }).features.length, rows);
});

test('a live path for a city its family does not cover: not_covered as a header-only CSV and an empty FeatureCollection', async () => {
  const csv = await get(url('/api/v1/live/dresden/low-emission-zone?format=csv'));
  assert.equal(csv.status, 200);
  assert.equal(csv.headers.get('x-source-status'), 'not_covered');
  assert.equal(csvRows(csv.text).length, 1);
  const geo = await get(url('/api/v1/live/dresden/low-emission-zone'), { accept: 'application/geo+json' });
  const fc = JSON.parse(geo.text) as { features: unknown[]; meta: { source_status: string } };
  assert.deepEqual([fc.features.length, fc.meta.source_status], [0, 'not_covered']);
  assert.match((await get(url('/api/v1/live/dresden/low-emission-zone'))).headers.get('content-type') ?? '', /^application\/json/);
});

test('a compare answer kept as a view (and served by the lane) is never the answer to a CSV request; its Vary names Accept', async () => {
  const path = '/api/v1/compare?resource=weather&cities=hamburg,bremen';
  for (let i = 0; i < 3; i++)
    assert.equal((await get(url(path))).headers.get('vary'), 'Accept, accept-encoding, X-Stadtdaten-Channel, User-Agent', `answer ${i + 1}`);
  const csv = await get(url(path), { accept: 'text/csv' });
  assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
  assert.equal(csvRows(csv.text).length - 1, 2);
});
