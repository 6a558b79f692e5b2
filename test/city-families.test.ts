import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerAllFixtures, fixtureSettings } from './fixtures/index.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at, list } from './helpers/json.ts';

const ctx = useFakeApp(registerAllFixtures, { env: fixtureSettings() });

/** The envelope without the members that say how this request was served. */
const content = (j: unknown) => {
  const { cache_status: _c, fetched_at: _f, ...meta } = at(j, 'meta') as Record<string, unknown>;
  return { data: at(j, 'data'), meta, attribution: at(j, 'attribution') };
};

test('literal live paths answer any spelling of their city exactly like the canonical path', async () => {
  const pairs = [
    ['/api/v1/live/frankfurt-am-main/departures?stop=3000010', '/api/v1/live/frankfurt/departures?stop=3000010'],
    ['/api/v1/live/nuernberg/departures?stop=536', '/api/v1/live/nuremberg/departures?stop=536'],
    ['/api/v1/live/nuernberg/departures?stop=536', '/api/v1/live/N%C3%BCrnberg/departures?stop=536'],
    ['/api/v1/live/hamburg/departures', '/api/v1/live/Hamburg/departures'],
    ['/api/v1/live/berlin/traffic-reports', '/api/v1/live/Berlin/traffic-reports'],
    ['/api/v1/live/kiel/counting-stations', '/api/v1/live/Kiel/counting-stations'],
    ['/api/v1/live/koeln/low-emission-zone', '/api/v1/live/Cologne/low-emission-zone'],
    ['/api/v1/live/hamburg/traffic-situation', '/api/v1/live/HAMBURG/traffic-situation'],
  ];
  for (const [canonical, spelled] of pairs) {
    const a = await ctx.app.get(canonical!);
    const b = await ctx.app.get(spelled!);
    assert.equal(b.status, 200, spelled);
    assert.deepEqual(content(b.json), content(a.json), `${spelled} answers like ${canonical}`);
    assert.equal(b.headers.get('etag'), a.headers.get('etag'), spelled);
  }
});

test('a city without a literal path of the family: the template type answers it, or 200 not_covered with the covered cities', async () => {
  // departures: the EFA template route answers every city the literal paths leave.
  assert.equal(at((await ctx.app.get('/api/v1/live/Essen/departures?stop=Essen%20Hbf')).json, 'meta.type'), 'departures-efa');
  for (const path of ['/api/v1/live/koeln/traffic-reports', '/api/v1/live/Koeln/counting-stations', '/api/v1/live/essen/low-emission-zone']) {
    const r = await ctx.app.get(path);
    assert.equal(r.status, 200, path);
    assert.equal(at(r.json, 'meta.source_status'), 'not_covered', path);
    assert.ok(list(r.json, 'meta.covered_cities').length > 0, path);
    assert.equal(at(r.json, 'data'), null);
  }
  assert.deepEqual(at((await ctx.app.get('/api/v1/live/koeln/traffic-reports')).json, 'meta.covered_cities'), ['berlin', 'hannover']);
  // An unknown city stays a 404 with a hint.
  const unknown = await ctx.app.get('/api/v1/live/atlantis/traffic-reports');
  assert.equal(unknown.status, 404);
  assert.equal(at(unknown.json, 'code'), 'city_not_found');
});

test('deprecated literal aliases keep their Deprecation and Link headers for every spelling', async () => {
  const r = await ctx.app.get('/api/v1/live/Kiel/zaehlstellen');
  assert.equal(r.status, 200);
  assert.ok(r.headers.get('deprecation'));
  assert.match(r.headers.get('link') ?? '', /<\/api\/v1\/live\/kiel\/counting-stations>; rel="successor-version"/);
  const elsewhere = await ctx.app.get('/api/v1/live/essen/zaehlstellen');
  assert.equal(at(elsewhere.json, 'meta.source_status'), 'not_covered');
  assert.ok(elsewhere.headers.get('deprecation'));
});

test('a did-you-mean hint never suggests the URL that was requested', async () => {
  const typo = await ctx.app.get('/api/v1/live/Berlin/traffic-reprts');
  assert.equal(typo.status, 404);
  assert.equal(at(typo.json, 'suggested_path'), '/api/v1/live/berlin/traffic-reports');
  for (const path of ['/api/v1/live/berlin/traffic-report', '/api/v1/cities/koeln/wether']) {
    const r = await ctx.app.get(path);
    assert.notEqual(at(r.json, 'suggested_path'), path, path);
    assert.doesNotMatch(String(at(r.json, 'hint')), new RegExp(`Did you mean ${path.replace(/[/.?]/g, '\\$&')}\\?`), path);
  }
});
