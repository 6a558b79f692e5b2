import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, str } from './helpers/json.ts';
import { expectUnavailable } from './helpers/status-rules.ts';
import { nth } from './helpers/must.ts';
import { type TestResponse } from './helpers/app.ts';
import { APEN_ALL, BAD_KEY, FRANKFURT_DIESEL, register as registerTankerkoenig } from './fixtures/tankerkoenig/routes.ts';
import { parseStationList } from '../src/sources/tankerkoenig/list.ts';

const KEY = { TANKERKOENIG_API_KEY: 'test-key-0000' };
const ctx = useFakeApp(registerTankerkoenig, { env: KEY, keyless: true });
const { fake } = ctx;

const freshGet = (path: string, env: Record<string, string> = KEY): Promise<TestResponse> => ctx.freshGet(path, env);

interface Station {
  id: string;
  street: string | null;
  house_number: string | null;
  post_code: string | null;
  diesel_eur: number | null;
  e5_eur: number | null;
  e10_eur: number | null;
  is_open: boolean | null;
  distance_km: number | null;
  lat: number | null;
  lon: number | null;
}

test('parser: the real type=all answer: three prices, null prices, integer post code to 5 characters', () => {
  const s = parseStationList(JSON.parse(fixture(APEN_ALL).toString()), 'all');
  assert.equal(s.length, 3);
  const avia = nth(s, 0);
  assert.equal(avia.diesel_eur, 1.669);
  assert.equal(avia.e5_eur, 1.749);
  assert.equal(avia.e10_eur, 1.689);
  assert.equal(avia.post_code, '26689');
  assert.equal(avia.house_number, '115');
  assert.equal(avia.lon, 7.812575);
  assert.equal(avia.distance_km, 0.9);
  assert.equal(nth(s, 1).brand, null, 'empty brand is null');
  assert.equal(nth(s, 2).e5_eur, null);
  assert.equal(parseStationList({ ok: true, stations: [{ id: 'x', postCode: 1067, e5: false, e10: 0 }] }, 'all')[0]?.post_code, '01067');
});

test('parser: the real single-fuel answer: price goes to its fuel, house number split from the street', () => {
  const s = parseStationList(JSON.parse(fixture(FRANKFURT_DIESEL).toString()), 'diesel');
  assert.equal(s.length, 3);
  assert.equal(nth(s, 0).diesel_eur, 1.419);
  assert.equal(nth(s, 0).e5_eur, null);
  assert.equal(nth(s, 0).street, 'Hanauer Landstraße');
  assert.equal(nth(s, 0).house_number, '34-40');
  assert.equal(nth(s, 2).street, 'SPESSARTSTR.');
  assert.equal(nth(s, 2).house_number, '22-24');
  assert.throws(() => parseStationList(JSON.parse(fixture(BAD_KEY).toString()), 'all'), /apikey/);
});

test('GET fuel-prices: Frankfurt diesel prices with canonical address fields, one call with the key', async () => {
  const r = await ctx.app.get('/api/v1/cities/frankfurt-am-main/fuel-prices?fuel=diesel');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  const s = list<Station>(r.json, 'data');
  assert.equal(s.length, 3);
  for (const x of s) assert.equal(x.post_code?.length, 5);
  assert.equal(s[0]?.post_code, '60314');
  assert.equal(s[0]?.diesel_eur, 1.419);
  assert.equal(s[0]?.is_open, true);
  assert.equal(fake.count('/json/list.php'), 1);
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.equal(q.get('type'), 'diesel');
  assert.equal(q.get('sort'), 'dist');
  assert.equal(q.get('apikey'), 'test-key-0000');
  assert.equal(Number(q.get('rad')), 8.9);
  assert.equal(at(r.json, 'attribution.license'), 'CC BY 4.0');
  assert.doesNotMatch(r.text, /test-key-0000/);
});

test('fuel-prices: type=all is asked without sort; no station is no_data', async () => {
  const r = await ctx.app.get('/api/v1/cities/kassel/fuel-prices');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(str(r.json, 'meta.reason'), /no fuel station/);
  const q = new URL(nth(fake.requests, 0).url, 'http://x').searchParams;
  assert.equal(q.get('type'), 'all');
  assert.equal(q.get('sort'), null);
});

test('fuel-prices: an unknown fuel is 422 with the allowed values', async () => {
  const r = await ctx.app.get('/api/v1/cities/kassel/fuel-prices?fuel=lpg');
  assert.equal(r.status, 422);
  assert.deepEqual(at(r.json, 'allowed'), ['all', 'e5', 'e10', 'diesel']);
});

test('fuel-prices: without the API key disabled, naming the variable, and nothing is called', async () => {
  const r = await ctx.keyless.get('/api/v1/cities/frankfurt-am-main/fuel-prices');
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'disabled');
  assert.equal(at(r.json, 'data'), null);
  assert.match(str(r.json, 'meta.disabled_reason'), /TANKERKOENIG_API_KEY/);
  assert.equal(fake.count(), 0);
});

test('fuel-prices: a refused key (ok:false with HTTP 200), garbage or a dead upstream is 503, never 500', async () => {
  fake.get('/json/list.php', { file: BAD_KEY });
  const refused = await freshGet('/api/v1/cities/frankfurt-am-main/fuel-prices?fuel=diesel');
  assert.equal(refused.status, 503);
  assert.equal(at(refused.json, 'code'), 'upstream_unavailable');
  fake.get('/json/list.php', { body: '<html>502</html>', headers: { 'content-type': 'text/html' } });
  assert.equal((await freshGet('/api/v1/cities/frankfurt-am-main/fuel-prices')).status, 503);
  await expectUnavailable({ fake, env: KEY, path: '/api/v1/cities/frankfurt-am-main/fuel-prices' });
});
