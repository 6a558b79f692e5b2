import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at, list, str } from './helpers/json.ts';

const ctx = useFakeApp(registerAllFixtures);

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (header ?? '').matchAll(/<([^>]+)>; rel="(\w+)"/g)) out[m[2]!] = m[1]!;
  return out;
}

test('Link headers (first, prev, next, last) on paged lists; none on an unpaged one', async () => {
  const p2 = await ctx.app.get('/api/v1/cities?limit=10&page=2');
  const l = links(p2.headers.get('link'));
  assert.deepEqual(Object.keys(l).sort(), ['first', 'last', 'next', 'prev']);
  assert.equal(l.first, '/api/v1/cities?limit=10&page=1');
  assert.equal(l.prev, '/api/v1/cities?limit=10&page=1');
  assert.equal(l.next, '/api/v1/cities?limit=10&page=3');
  assert.equal(l.last, '/api/v1/cities?limit=10&page=9');
  // Following next to the end visits every city once.
  const seen: string[] = [];
  let next: string | undefined = '/api/v1/cities?limit=25';
  while (next) {
    const r = await ctx.app.get(next);
    seen.push(...list<{ slug: string }>(r.json, 'data').map((c) => c.slug));
    next = links(r.headers.get('link')).next;
  }
  assert.equal(seen.length, 84);
  assert.equal(new Set(seen).size, 84);
  // An offset becomes its page; the first page has no prev, the last no next.
  const first = links((await ctx.app.get('/api/v1/sources?limit=5')).headers.get('link'));
  assert.equal(first.prev, undefined);
  assert.ok(first.next?.includes('page=2'));
  const off = links((await ctx.app.get('/api/v1/cities?limit=10&offset=80')).headers.get('link'));
  assert.equal(off.next, undefined);
  assert.equal(off.prev, '/api/v1/cities?limit=10&page=8');
  // Data-type lists and compare carry them too; an unpaged full list does not.
  const air = await ctx.app.get('/api/v1/live/braunschweig/air-uba?limit=1');
  assert.ok(links(air.headers.get('link')).next, 'data-type list');
  const compare = await ctx.app.get('/api/v1/compare?resource=weather&cities=berlin,hamburg,koeln&limit=2');
  assert.ok(links(compare.headers.get('link')).next, 'compare');
  assert.equal((await ctx.app.get('/api/v1/cities')).headers.get('link'), null);
});

test('compare sort=value orders by the declared numeric field, nulls last; order=desc reverses', async () => {
  // Cities no other test asked for (answers are cached). The recorded answer with its temperature set from the requested latitude, so cities differ.
  const base = JSON.parse(fixture('brightsky/current_weather-feldberg-2022-07-24.json').toString('utf8')) as { weather: Record<string, unknown> };
  ctx.fake.get('/current_weather', (_req, url) => ({ json: { ...base, weather: { ...base.weather, temperature: Number(url.searchParams.get('lat')) } } }));
  const asc = await ctx.app.get('/api/v1/compare?resource=weather&cities=kiel,muenchen,stuttgart,atlantis&sort=value');
  assert.equal(asc.status, 200);
  assert.equal(str(asc.json, 'meta.value_field'), 'temperature_c');
  const rows = list<{ city: string; value: number | null }>(asc.json, 'data');
  assert.deepEqual(
    rows.map((r) => r.city),
    ['muenchen', 'stuttgart', 'kiel', 'atlantis'],
  );
  assert.ok(rows[0]!.value! < rows[1]!.value! && rows[1]!.value! < rows[2]!.value!);
  assert.equal(rows[3]!.value, null);
  const desc = await ctx.app.get('/api/v1/compare?resource=weather&cities=muenchen,kiel,stuttgart&sort=value&order=desc');
  assert.deepEqual(
    list<{ city: string }>(desc.json, 'data').map((r) => r.city),
    ['kiel', 'stuttgart', 'muenchen'],
  );
  // A dotted value path (air: readings.no2.value) is read the same way.
  const air = await ctx.app.get('/api/v1/compare?resource=air&cities=braunschweig&sort=value');
  assert.equal(str(air.json, 'meta.value_field'), 'readings.no2.value');
  assert.equal(typeof at(air.json, 'data.0.value'), 'number');
  // A resource without a declared value says which ones have one.
  const none = await ctx.app.get('/api/v1/compare?resource=indicators&cities=koeln&sort=value');
  assert.equal(none.status, 400);
  assert.match(str(none.json, 'hint'), /sort=value works for: .*weather/);
});

test('did-you-mean for an unknown data-type suffix and an unknown compare resource', async () => {
  const r = await ctx.app.get('/api/v1/cities/koeln/wether');
  assert.equal(r.status, 404);
  assert.equal(at(r.json, 'code'), 'route_not_found');
  assert.equal(at(r.json, 'suggestion'), 'weather');
  assert.match(str(r.json, 'hint'), /Did you mean \/api\/v1\/cities\/koeln\/weather\?/);
  const far = await ctx.app.get('/api/v1/cities/koeln/xyzzyplugh');
  assert.equal(far.status, 404);
  assert.equal(at(far.json, 'suggestion'), undefined);
  // Real routes still win over the catch-all.
  assert.equal((await ctx.app.get('/api/v1/cities/koeln/overview')).status, 200);
  const c = await ctx.app.get('/api/v1/compare?resource=wheather&cities=koeln');
  assert.equal(c.status, 400);
  assert.equal(at(c.json, 'suggestion'), 'weather');
  assert.match(str(c.json, 'hint'), /^Did you mean "weather"\?/);
});

test('did-you-mean under /api/v1/live/{city} too; real live routes (fixed-city ones included) still answer', async () => {
  const r = await ctx.app.get('/api/v1/live/braunschweig/air-ub');
  assert.equal(r.status, 404);
  assert.equal(at(r.json, 'suggestion'), 'air-uba');
  assert.equal(at(r.json, 'suggested_path'), '/api/v1/live/braunschweig/air-uba');
  const d = await ctx.app.get('/api/v1/live/nuernberg/departure');
  assert.equal(at(d.json, 'suggestion'), 'departures');
  assert.equal((await ctx.app.get('/api/v1/live/braunschweig/air')).status, 200);
  assert.equal((await ctx.app.get('/api/v1/live/nuernberg/departures?stop=536')).status, 200);
});
