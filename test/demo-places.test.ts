import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, type Demo } from '../scripts/demo.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { CITY_BY_SLUG, type City } from '../src/cities/register.ts';
import { coveredCities, fillTemplate, routePath, type DataType } from '../src/core/data-type.ts';
import { get } from './helpers/app.ts';
import { at, list } from './helpers/json.ts';
import { figures, sharedFigures, verdict } from './helpers/places.ts';

/**
 * The demo never shows one city's data under another city's name: every data type of the catalog,
 * asked for three cities other than its example city (the one its recordings model), answers either
 * something other than `ok` or data located in the asked city.
 */
let demo: Demo;
before(async () => {
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
});
after(async () => {
  await demo.close();
});

/** Cities far apart, each with recordings of its own for some types (so a mix-up would show). */
const SPREAD = ['berlin', 'hamburg', 'koeln', 'muenchen', 'leipzig'];
/** "Within the city": its register point plus this much (a weather station or an air station may lie outside). */
const RADIUS_KM = 40;

/** Three cities other than the example: covered ones first (the others answer not_covered anyway). */
function otherCities(dt: DataType): City[] {
  const covered = coveredCities(dt);
  const pool = [...(covered ? [...covered].sort() : []), ...SPREAD];
  return [...new Set(pool)]
    .filter((s) => s !== dt.example.city)
    .slice(0, 3)
    .map((s) => CITY_BY_SLUG.get(s)!);
}

/** The example request for another city: the same parameters (a stop, a trip id), the city swapped. */
function requestFor(dt: DataType, city: City): string {
  const template = routePath(dt);
  const inPath = new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const query = Object.entries(dt.example.params ?? {}).filter(([k]) => !inPath.has(k));
  return fillTemplate(template, { ...dt.example.params, city: city.slug }) + (query.length ? `?${new URLSearchParams(query)}` : '');
}

/** Per-city types whose ok answer carries no place of its own, with the reason. */
const PLACELESS: Record<string, string> = {
  'power-load': 'national grid load (region DE) and the control area: no city value exists',
  'power-price': 'day-ahead price of the bidding zone DE-LU: the same for every city',
  transit: "the nationwide feed's state and the count of the city's stops in it; the departures and trips carry the stops",
};
/** Per-city records of figures alone (no name, key or point): the figure check below is their test. */
const FIGURES_ONLY = new Set(['population-density', 'district-heating']);
/** A trip or a route runs through other places too: one of its stops in the city is enough. */
const ANY_POINT = new Set(['transit-trip']);

/** Global types: the path parameter that names a place, with values of other places; or why none does. */
const GLOBAL_PLACES: Record<string, { param: string; values: Record<string, string> } | string> = {
  'station-board-departures': { param: 'eva', values: { '8011160': 'berlin', '8002549': 'hamburg', '8000261': 'muenchen' } },
  'station-board-arrivals': { param: 'eva', values: { '8011160': 'berlin', '8002549': 'hamburg', '8000261': 'muenchen' } },
  'live-charging': 'the operator names a data provider (MobiData BW, eRound), not a place; each item carries its own coordinates',
  tenders: 'filters notices nationwide by CPV code; each notice names its own buyer',
};

interface Answer {
  path: string;
  status: number;
  json: unknown;
}

async function ask(path: string): Promise<Answer> {
  const r = await get(demo.url + path);
  return { path, status: r.status, json: r.json };
}

/** The walk's answers, asked once per file: the tests that read the same requests share them. */
const walked = new Map<string, Promise<Answer>>();
function askOnce(path: string): Promise<Answer> {
  let a = walked.get(path);
  if (!a) walked.set(path, (a = ask(path)));
  return a;
}

test('demo: no data type answers ok for another city with data located elsewhere', { timeout: 600_000 }, async () => {
  const wrong: string[] = [];
  let oks = 0;
  for (const dt of CATALOG.all) {
    if (dt.scope === 'global') {
      const places = GLOBAL_PLACES[dt.type];
      assert.ok(places, `${dt.type}: a global type needs an entry in GLOBAL_PLACES`);
      if (typeof places === 'string') continue;
      for (const [value, slug] of Object.entries(places.values)) {
        const a = await ask(fillTemplate(routePath(dt), { ...dt.example.params, [places.param]: value }));
        if (at(a.json, 'meta.source_status') !== 'ok') continue;
        oks++;
        const v = verdict(at(a.json, 'data'), CITY_BY_SLUG.get(slug)!, { radiusKm: RADIUS_KM });
        if (v.wrong) wrong.push(`${a.path}: ${v.wrong}`);
        if (at(a.json, 'data.station.eva') !== value) wrong.push(`${a.path}: the board is of station ${String(at(a.json, 'data.station.eva'))}`);
      }
      continue;
    }
    // A literal path (e.g. /api/v1/live/nuernberg/departures) serves its one city: no other city can be asked.
    if (!/\{city\}/.test(routePath(dt))) continue;
    const seen: { city: City; figures: Map<string, number> }[] = [];
    for (const city of otherCities(dt)) {
      const a = await askOnce(requestFor(dt, city));
      assert.notEqual(a.status, 500, a.path);
      if (at(a.json, 'meta.source_status') !== 'ok') continue;
      oks++;
      assert.equal(at(a.json, 'meta.city'), city.slug, a.path);
      if (dt.type === 'transit-route-status') {
        // A route status lists trip ids only: each must be a trip through the city.
        for (const t of list<{ trip_id: string }>(a.json, 'data.trips')) {
          const trip = await ask(`/api/v1/live/${city.slug}/transit/trips/${t.trip_id}`);
          if (at(trip.json, 'meta.source_status') !== 'ok') wrong.push(`${a.path}: lists trip ${t.trip_id}, which does not run through ${city.name}`);
        }
        continue;
      }
      const v = verdict(at(a.json, 'data'), city, { radiusKm: RADIUS_KM, anyPoint: ANY_POINT.has(dt.type) });
      if (v.wrong) wrong.push(`${a.path}: ${v.wrong}`);
      else if (v.checked === 0 && !PLACELESS[dt.type] && !FIGURES_ONLY.has(dt.type)) wrong.push(`${a.path}: ok, but the answer names no place to check`);
      if (PLACELESS[dt.type]) continue;
      // Figures alone name no place: a fake that ignores the place repeats them for every city.
      const mine = figures(at(a.json, 'data'));
      for (const other of seen) {
        const same = sharedFigures(mine, other.figures);
        if (same.length) wrong.push(`${a.path}: the same figures as for ${other.city.slug} (${same.slice(0, 3).join(', ')})`);
      }
      seen.push({ city, figures: mine });
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(oks > 0, 'some other cities have recordings of their own');
});

test(
  'demo: a city without a recording answers what an upstream with nothing gives (no_data), never a 503 for an upstream that answered; health lists no failing source',
  { timeout: 600_000 },
  async () => {
    const failed: string[] = [];
    for (const dt of CATALOG.all) {
      if (dt.scope === 'global' || !/\{city\}/.test(routePath(dt))) continue;
      for (const city of otherCities(dt)) {
        const a = await askOnce(requestFor(dt, city));
        // The service's own per-minute call budget (GENESIS, DB) is a refusal of its own, not an upstream's answer.
        if (a.status >= 500 && !/call budget/.test(String(at(a.json, 'detail')))) failed.push(`${a.path}: ${a.status} ${String(at(a.json, 'detail'))}`);
      }
    }
    assert.deepEqual(failed, []);
    const health = await ask('/api/v1/health');
    assert.deepEqual(at(health.json, 'data.sources.failing'), []);
  },
);

test('demo: another city without a recording answers no_data, and the meta names the city the demo has one for', async () => {
  const r = await ask('/api/v1/cities/berlin/weather');
  assert.equal(at(r.json, 'meta.source_status'), 'no_data');
  assert.match(String(at(r.json, 'meta.note')), /Freiburg im Breisgau/);
  const own = await ask('/api/v1/cities/freiburg-im-breisgau/weather');
  assert.equal(at(own.json, 'meta.source_status'), 'ok');
  assert.equal(at(own.json, 'meta.note'), undefined);
});

test('demo: the coverage matrix marks a type available only in the city its recordings are of', async () => {
  const r = await ask('/api/v1/coverage');
  const weather = list<{ type: string }>(r.json, 'data').find((t) => t.type === 'weather');
  assert.equal(at(weather, 'demo_recorded_city'), 'freiburg-im-breisgau');
  assert.ok((at(r.json, 'meta.cells.no_recording') as number) > 0);
  // The matrix cell of a city and type: its column is the type's position among the page's type headers.
  const page = await get(`${demo.url}/coverage`);
  const types = [...page.text.matchAll(/<th class="t"[^>]*>([^<]+)<\/th>/g)].map((m) => m[1]);
  const row = (slug: string) => page.text.split('\n').find((l) => l.includes(`data-slug="${slug}"`)) ?? '';
  const weatherCell = (slug: string) => [...row(slug).matchAll(/<td class=([a-z])>/g)].map((m) => m[1]).filter((c) => c !== 'r')[types.indexOf('weather')];
  assert.equal(weatherCell('freiburg-im-breisgau'), 'a', 'available');
  assert.equal(weatherCell('berlin'), 'm', 'no recording');
  // The city page shows what the cache holds (it fetches nothing): Berlin's weather, asked above, answered no_data, never Freiburg's.
  const city = await ask('/api/v1/coverage/berlin');
  const item = list<{ type: string; cell: string; source_status: string }>(city.json, 'data.items').find((i) => i.type === 'weather');
  assert.deepEqual([item?.cell, item?.source_status], ['no_recording', 'no_data']);
});
