/**
 * `npm run precompute -- pois [city…]`: runs the POI precompute for the given cities (all when
 * none) with the configured store, printing one line per city and type.
 */
import { buildApp } from '../src/app.ts';
import { isConfigError } from '../src/config.ts';
import { loadAppConfig } from '../src/app-config.ts';
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
    const targets = cities.flatMap((city) => POI_TYPES.map((type) => ({ city, type })));
    console.log(
      `pois: ${cities.length} cities × ${POI_TYPES.length} types = ${targets.length} queries against ${built.rt.settings(OVERPASS).baseUrl} (store: ${built.rt.store.kind})`,
    );
    const cityIndex = new Map(cities.map((c, i) => [c.slug, i + 1]));
    const summary = await refreshPois(built.rt, targets, {
      signal: stop.signal,
      onProgress: (p) => {
        const head = `[city ${cityIndex.get(p.city)}/${cities.length}] [${p.index}/${p.total}] ${p.city} ${p.type}`;
        console.log(p.outcome === 'ok' ? `${head}: ${p.total_available} (${p.items} stored)` : `${head}: FAILED ${p.error} (previous value kept)`);
      },
    });
    console.log(
      `pois: ${summary.ok} stored, ${summary.failed} failed, ${summary.remaining} not attempted${summary.aborted ? ` (stopped: ${summary.aborted})` : ''}`,
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
