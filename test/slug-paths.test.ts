import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerAllFixtures, fixtureSettings } from './fixtures/index.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at, list } from './helpers/json.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { CITIES, CITY_BY_SLUG, type City } from '../src/cities/register.ts';
import { coveredCities, fillTemplate, routePath, streamCadence, type DataType } from '../src/core/data-type.ts';

/**
 * One slug rule for every path that names a city: each documented path (read from the served
 * OpenAPI document, literal live paths included), with and without its /stream and /history
 * suffixes, asked with the canonical slug, an alias, a capitalised spelling and a city outside
 * its coverage. Spellings answer as the canonical slug does; an uncovered city gets the documented
 * not_covered answer; a documented path is never a 404 for a city that resolves; nothing is a 500.
 */
const ctx = useFakeApp(registerAllFixtures, { env: fixtureSettings() });

interface Operation {
  parameters?: { name?: string; in?: string; required?: boolean; example?: unknown; $ref?: string; schema?: { enum?: string[] } }[];
}
interface Doc {
  paths: Record<string, { get?: Operation }>;
  components: { parameters?: Record<string, NonNullable<Operation['parameters']>[number]> };
}

/** The data type a documented path belongs to (its route or one of its deprecated aliases). */
function typeAt(template: string): DataType | undefined {
  return CATALOG.all.find((dt) => routePath(dt) === template || (dt.aliases ?? []).includes(template));
}

/** The literal city of a per-city path without a parameter (/api/v1/live/berlin/traffic-reports), if any. */
function literalCity(template: string): City | undefined {
  const segment = /^\/api\/v1\/live\/([a-z0-9-]+)\//.exec(template)?.[1];
  return segment ? CITY_BY_SLUG.get(segment) : undefined;
}

/**
 * The cities a literal path's family answers for: every literal path of the same shape
 * (/api/v1/live/berlin/… and /api/v1/live/hannover/…) and the coverage of the type at its template.
 */
function familyCities(template: string, literal: City): string[] {
  const shape = template.replace(`/${literal.slug}/`, '/{city}/');
  const out: string[] = [];
  for (const d of CATALOG.all) {
    for (const path of [routePath(d), ...(d.aliases ?? [])]) {
      if (d.fixedCity && path.replace(`/${d.fixedCity}/`, '/{city}/') === shape) out.push(d.fixedCity);
      if (!d.fixedCity && path === shape) out.push(...(coveredCities(d) ?? CITIES.map((c) => c.slug)));
    }
  }
  return out;
}

/** Spellings of a city other than its slug: an alias (exonym or transliteration) or its name, and the slug capitalised. */
function spellings(city: City): string[] {
  const alias = city.aliases.find((a) => a.toLowerCase() !== city.slug) ?? city.name;
  const capitalised = city.slug.charAt(0).toUpperCase() + city.slug.slice(1);
  return [...new Set([alias, capitalised].filter((s) => s !== city.slug))];
}

/** Members that say how and when a request was served (a history's default range ends now) or how its city was spelled, at any depth (the overview's highlights carry them too). */
const SERVED = new Set(['cache_status', 'fetched_at', 'generated_at', 'resolved_from', 'from', 'to']);

/**
 * Members of a position estimated for the moment of the request (a trip's, interpolated between its stops): two
 * requests a few milliseconds apart may place it a metre apart (the scenario's trip is always under way).
 */
const ESTIMATED = new Set(['lat', 'lon', 'fraction']);

/** The answer as text without those members. */
function content(json: unknown): string {
  return JSON.stringify(json, function (this: Record<string, unknown>, k, v: unknown) {
    return SERVED.has(k) || (this.estimated === true && ESTIMATED.has(k)) ? undefined : v;
  });
}

interface Head {
  status: number;
  type: string;
  json: unknown;
}

/** Status, content type and (unless it is a stream, which is closed at its head) the JSON body. */
async function head(path: string): Promise<Head> {
  const abort = new AbortController();
  const res = await fetch(ctx.app.url + path, { signal: abort.signal });
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    abort.abort();
    return { status: res.status, type, json: undefined };
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, type, json };
}

/** The path with the city segment spelled `spelling` (percent-encoded) and the other parameters from the example. */
function pathFor(template: string, spelling: string, values: Record<string, string>, literal: City | undefined): string {
  if (literal) return template.replace(`/${literal.slug}/`, `/${encodeURIComponent(spelling)}/`);
  return fillTemplate(template, { ...values, city: spelling });
}

test('every documented path names its city {city}, none {slug}', async () => {
  const doc = (await ctx.app.get('/api/v1/openapi.json')).json as Doc;
  const named = Object.keys(doc.paths).filter((p) => /\{(city|slug)\}/.test(p));
  assert.ok(named.length > 50);
  assert.deepEqual(
    named.filter((p) => p.includes('{slug}')),
    [],
  );
});

test(
  'every documented path with a city, with and without /stream and /history: alias and capitalised spellings answer as the slug, an uncovered city not_covered, never a 404 or 500',
  { timeout: 300_000 },
  async () => {
    const doc = (await ctx.app.get('/api/v1/openapi.json')).json as Doc;
    const problems: string[] = [];
    let walked = 0;
    for (const [template, item] of Object.entries(doc.paths)) {
      const op = item.get;
      if (!op) continue;
      const literal = literalCity(template);
      if (!template.includes('{city}') && !literal) continue;
      const params = (op.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters?.[p.$ref.split('/').pop()!] : p)).filter((p) => p !== undefined);
      const dt = typeAt(template);
      const cityParam = params.find((p) => p.name === 'city' && p.in === 'path');
      const canonical = literal ?? CITY_BY_SLUG.get(String(cityParam?.example ?? dt?.example.city ?? 'berlin'))!;
      // The other path and the required query parameters from the document's examples (the example city's stop, id, type).
      const values: Record<string, string> = {};
      const query = new URLSearchParams();
      for (const p of params) {
        if (!p.name || p.name === 'city' || p.example === undefined) continue;
        if (p.in === 'path') values[p.name] = String(p.example);
        else if (p.required) query.set(p.name, String(p.example));
      }
      const qs = query.size ? `?${query}` : '';
      const covered = literal ? familyCities(template, literal) : dt ? coveredCities(dt) : null;
      const uncovered = covered ? CITIES.find((c) => !covered.includes(c.slug)) : undefined;
      const suffixes = [''];
      if (dt && streamCadence(dt) !== null) suffixes.push('/stream');
      if (dt) suffixes.push('/history');
      for (const suffix of suffixes) {
        const ask = (spelling: string) => head(pathFor(template, spelling, values, literal) + suffix + qs);
        const label = `${template}${suffix}`;
        // The data requests just made record their values in the background: the history is compared once they are written.
        if (suffix === '/history') await ctx.app.history?.settled();
        const base = await ask(canonical.slug);
        walked++;
        if (base.status >= 500 && base.status !== 503) problems.push(`${label} (${canonical.slug}): ${base.status}`);
        if (suffix === '/history') {
          // A recorded type has its history under every path of its own; any other type answers a 404 naming the path to ask.
          const expected = dt?.history ? 200 : 404;
          if (base.status !== expected) problems.push(`${label}: ${base.status}, expected ${expected}`);
          if (base.status === 404 && at(base.json, 'code') !== 'route_not_found') problems.push(`${label}: 404 ${String(at(base.json, 'code'))}`);
        } else if (base.status === 404) problems.push(`${label} (${canonical.slug}): 404 ${String(at(base.json, 'code'))}`);
        if (suffix === '/stream' && base.status === 200 && !base.type.startsWith('text/event-stream')) problems.push(`${label}: not a stream`);
        for (const spelling of spellings(canonical)) {
          const r = await ask(spelling);
          if (r.status !== base.status || r.type.split(';')[0] !== base.type.split(';')[0]) {
            problems.push(`${label} as ${spelling}: ${r.status} ${r.type}, the slug gets ${base.status} ${base.type}`);
            continue;
          }
          if (base.json !== undefined && base.status === 200) {
            if (at(r.json, 'meta.city') !== at(base.json, 'meta.city')) problems.push(`${label} as ${spelling}: meta.city ${String(at(r.json, 'meta.city'))}`);
            else if (content(r.json) !== content(base.json)) problems.push(`${label} as ${spelling}: another answer than the slug's`);
          }
        }
        if (!uncovered || suffix === '/history') continue;
        const out = await ask(uncovered.slug);
        const state = at(out.json, 'meta.source_status');
        if (out.status !== 200 || state !== 'not_covered') problems.push(`${label} (${uncovered.slug}, uncovered): ${out.status} ${String(state ?? out.type)}`);
      }
    }
    assert.ok(walked > 150, `walked ${walked}`);
    assert.deepEqual(problems, []);
  },
);

test('a 404 under a history path names the history path to ask', async () => {
  for (const [path, suggested] of [
    ['/api/v1/live/Cologne/weather/history', '/api/v1/cities/koeln/weather/history'],
    ['/api/v1/cities/koeln/water-levle/history', '/api/v1/cities/koeln/water-level/history'],
    ['/api/v1/live/koeln/water-levl/history', '/api/v1/cities/koeln/water-level/history'],
  ] as const) {
    const r = await ctx.app.get(path);
    assert.equal(r.status, 404, path);
    assert.equal(at(r.json, 'code'), 'route_not_found', path);
    assert.equal(at(r.json, 'suggested_path'), suggested, path);
    assert.ok(String(at(r.json, 'hint')).includes(suggested), path);
  }
  const notRecorded = await ctx.app.get('/api/v1/live/koeln/webcams/history');
  assert.equal(notRecorded.status, 404);
  assert.match(String(at(notRecorded.json, 'hint')), /History is kept for: .*water-level.*GET \/api\/v1\/cities\/\{city\}\/\{type\}\/history/);
});

test('compare resolves every city before counting it: koeln, Cologne and Köln are one city', async () => {
  const r = await ctx.app.get('/api/v1/compare?resource=weather&cities=koeln,Cologne,K%C3%B6ln,berlin');
  assert.equal(r.status, 200);
  assert.deepEqual(
    list<{ city: string }>(r.json, 'data')
      .map((i) => i.city)
      .sort(),
    ['berlin', 'koeln'],
  );
});

test('service lists offer CSV like the data lists (the register also GeoJSON) and answer 406 naming what they offer', async () => {
  for (const [path, rows] of [
    ['/api/v1/cities', CITIES.length],
    ['/api/v1/sources', null],
    ['/api/v1/coverage', null],
    ['/api/v1/coverage/Cologne', null],
    ['/api/v1/cities/Cologne', 1],
  ] as const) {
    const byQuery = await ctx.app.get(`${path}?format=csv`);
    const byAccept = await ctx.app.get(path, { accept: 'text/csv' });
    for (const r of [byQuery, byAccept]) {
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get('content-type') ?? '', /^text\/csv/, path);
      assert.match(r.headers.get('vary') ?? '', /Accept/, path);
    }
    assert.equal(byQuery.text, byAccept.text, path);
    const lines = byQuery.text.trim().split('\n');
    if (rows !== null) assert.equal(lines.length, rows + 1, path);
    else assert.ok(lines.length > 50, path);
  }
  assert.match((await ctx.app.get('/api/v1/cities?format=csv')).text.split('\n')[0]!, /^slug,name,ags,ars,state,state_name,lat,lon,/);
  const geo = await ctx.app.get('/api/v1/cities?format=geojson');
  assert.equal(geo.headers.get('content-type'), 'application/geo+json');
  const koeln = list<{ geometry: { coordinates: number[] }; properties: { slug: string } }>(geo.json, 'features').find((f) => f.properties.slug === 'koeln');
  assert.deepEqual(koeln?.geometry.coordinates, [CITY_BY_SLUG.get('koeln')!.lon, CITY_BY_SLUG.get('koeln')!.lat]);
  for (const path of ['/api/v1/sources?format=geojson', '/api/v1/coverage?format=geojson']) {
    const r = await ctx.app.get(path);
    assert.equal(r.status, 406, path);
    assert.equal(at(r.json, 'code'), 'not_acceptable');
    assert.deepEqual(at(r.json, 'formats'), ['json', 'csv']);
  }
  const unknown = await ctx.app.get('/api/v1/cities?format=xml');
  assert.equal(unknown.status, 422);
});
