/**
 * Cold place precompute of all 84 cities against a fake Overpass on loopback: the scheduled
 * job's defaults (concurrency, pause, back-off), every query answered after BENCH_OVERPASS_MS
 * (default 3000 ms, a typical city-wide query of the public instance) with München's place
 * answer, and every BENCH_429_EVERY-th query (default 10th) refused with 429 + Retry-After: 1 first.
 * Reports wall time, Overpass requests and stored cities.
 * Run: node --import tsx bench/places.ts
 */
import { FakeUpstream, type Reply } from '../test/helpers/fake-upstream.ts';
import { fakeEnv, startApp } from '../test/helpers/app.ts';
import { CITIES } from '../src/cities/register.ts';
import { PLACE_TYPES } from '../src/sources/overpass/place-types.ts';
import { PLACES_DEFAULTS, refreshPlaces } from '../src/jobs/pois/places-refresh.ts';

const DELAY = Number(process.env.BENCH_OVERPASS_MS ?? 3000);
const EVERY_429 = Number(process.env.BENCH_429_EVERY ?? 10);

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
  return { file: 'overpass/places_muenchen.json' };
});
const app = await startApp(fakeEnv(fake.url));
const started = Date.now();
try {
  const s = await refreshPlaces(app.rt, CITIES);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    JSON.stringify(
      {
        cities: CITIES.length,
        place_types: PLACE_TYPES.length,
        defaults: PLACES_DEFAULTS,
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
