/**
 * Cold OSM precompute of all 84 cities against a fake Overpass on loopback: the scheduled
 * jobs' defaults (concurrency, pause, back-off), every query answered after BENCH_OVERPASS_MS
 * (default 3000 ms, a typical city-wide query of the public instance) with München's place
 * answer (BENCH_PRECOMPUTE=places, the default) or Berlin's POI answer (BENCH_PRECOMPUTE=pois),
 * and every BENCH_429_EVERY-th query (default 10th) refused with 429 + Retry-After: 1 first.
 * Reports wall time, Overpass requests and stored cities.
 * Run: node bench/places.ts   |   BENCH_PRECOMPUTE=pois node bench/places.ts
 */
import { FakeUpstream, type Reply } from '../test/helpers/fake-upstream.ts';
import { fakeEnv, startApp } from '../test/helpers/app.ts';
import { CITIES } from '../src/cities/register.ts';
import { PLACE_TYPES } from '../src/sources/overpass/place-types.ts';
import { POI_TYPES } from '../src/sources/overpass/poi-types.ts';
import { refreshPois } from '../src/jobs/pois/refresh.ts';
import { refreshPlaces } from '../src/jobs/pois/places-refresh.ts';
import { OVERPASS_REFRESH_DEFAULTS } from '../src/jobs/pois/city-refresh.ts';

const DELAY = Number(process.env.BENCH_OVERPASS_MS ?? 3000);
const EVERY_429 = Number(process.env.BENCH_429_EVERY ?? 10);
const KIND = process.env.BENCH_PRECOMPUTE === 'pois' ? 'pois' : 'places';
const ANSWER = KIND === 'pois' ? 'overpass/pois_berlin.json' : 'overpass/places_muenchen.json';

const fake = await new FakeUpstream().start();
let calls = 0;
let refused = 0;
let inFlight = 0;
let peak = 0;
fake.post('/api/interpreter', async (): Promise<Reply> => {
  calls++;
  if (EVERY_429 > 0 && calls % EVERY_429 === 0) {
    refused++;
    return { status: 429, headers: { 'retry-after': '1' }, body: 'rate limited' };
  }
  inFlight++;
  peak = Math.max(peak, inFlight);
  await new Promise((r) => setTimeout(r, DELAY));
  inFlight--;
  return { file: ANSWER };
});
const app = await startApp(fakeEnv(fake.url));
const started = Date.now();
try {
  const s = KIND === 'pois' ? await refreshPois(app.rt, CITIES) : await refreshPlaces(app.rt, CITIES);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    JSON.stringify(
      {
        cities: CITIES.length,
        precompute: KIND,
        types: KIND === 'pois' ? POI_TYPES.length : PLACE_TYPES.length,
        defaults: OVERPASS_REFRESH_DEFAULTS,
        overpass_ms_per_query: DELAY,
        stored: s.ok,
        failed: s.failed,
        overpass_requests: s.requests,
        refused_429: refused,
        peak_in_flight: peak,
        wall_seconds: Math.round(seconds * 10) / 10,
      },
      null,
      1,
    ),
  );
} finally {
  await app.close();
  await fake.stop();
}
