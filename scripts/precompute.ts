/**
 * `npm run precompute -- pois [city…]`: runs the POI precompute for the given cities (all when
 * none) with the configured store: one Overpass query per city, one line per city with its counts.
 */
import { buildApp } from '../src/app.ts';
import { isConfigError } from '../src/core/config.ts';
import { loadAppConfig } from '../src/startup.ts';
import { CITIES, type City } from '../src/cities/register.ts';
import { findCity, suggest } from '../src/cities/resolve.ts';
import { POI_TYPES } from '../src/sources/overpass/poi-types.ts';
import { OVERPASS } from '../src/sources/overpass/source.ts';
import { refreshPois } from '../src/jobs/pois/refresh.ts';

const USAGE = 'usage: npm run precompute -- pois [city …]   (all cities when none is given)';

function citiesFrom(args: string[]): City[] {
  if (args.length === 0) return [...CITIES];
  return args.map((raw) => {
    const city = findCity(raw);
    if (city) return city;
    const near = suggest(raw);
    throw new Error(`unknown city "${raw}"${near ? ` (did you mean ${near.slug}?)` : ''}`);
  });
}

async function main(): Promise<number> {
  const [task, ...rest] = process.argv.slice(2);
  if (task !== 'pois') {
    console.error(USAGE);
    return 2;
  }
  let cities: City[];
  let config;
  try {
    cities = citiesFrom(rest);
    config = loadAppConfig({ LOG_LEVEL: 'warn', ...process.env, JOBS_ENABLED: 'false' });
  } catch (err) {
    console.error(`precompute: ${isConfigError(err) ? 'invalid configuration: ' : ''}${err instanceof Error ? err.message : err}`);
    return 2;
  }
  const built = await buildApp(config, { logger: false });
  const stop = new AbortController();
  process.once('SIGINT', () => {
    console.log('\ninterrupted: finishing the current query is skipped, stored values are kept');
    stop.abort();
  });
  try {
    if (!built.rt.sourceEnabled(OVERPASS)) {
      console.error(`precompute: ${OVERPASS.name} is switched off (${OVERPASS.env}_ENABLED=false)`);
      return 1;
    }
    console.log(
      `pois: ${cities.length} cities, one query each for all ${POI_TYPES.length} types, against ${built.rt.settings(OVERPASS).baseUrl} (store: ${built.rt.store.kind})`,
    );
    let done = 0;
    const summary = await refreshPois(built.rt, cities, {
      signal: stop.signal,
      onProgress: (p) => {
        const head = `[${++done}/${cities.length}] ${p.city}`;
        const counts = Object.entries(p.counts ?? {})
          .map(([t, n]) => `${t} ${n}`)
          .join(', ');
        console.log(p.outcome === 'ok' ? `${head}: ${counts}` : `${head}: FAILED ${p.error} (previous values kept)`);
      },
    });
    console.log(
      `pois: ${summary.ok} cities stored, ${summary.failed} failed, ${summary.remaining} not attempted, ${summary.requests} Overpass requests` +
        (summary.aborted ? ` (stopped: ${summary.aborted})` : ''),
    );
    return summary.failed > 0 || summary.remaining > 0 ? 1 : 0;
  } finally {
    await built.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('precompute failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
