/**
 * `npm run capacity-docs`: the capacity tables of docs/operations.md, from the catalog (cache
 * windows, sources, cities covered, jobs and their cadence), the sources' declared published
 * limits, the config's defaults and the figures measured on this project's machine
 * (bench/README.md, bench/capacity-entry-bytes.json). `--check` fails when the document is out of
 * date (the tests run it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CATALOG } from '../src/catalog/index.ts';
import { CITIES } from '../src/cities/register.ts';
import { coveredCities, primariesOf, type DataType, type PrimarySource } from '../src/core/data-type.ts';
import { formOf } from '../src/core/forms.ts';
import { intervalOf } from '../src/core/job.ts';
import type { SourceDecl } from '../src/core/source.ts';
import { loadAppConfig } from '../src/startup.ts';
import { configuredHosts } from '../src/pipeline/breakers.ts';
import { cadenceSeconds } from '../src/history/refresh-job.ts';
import { replaceSection } from './doc-sections.ts';

/** Measured on the project's machine; each names its bench/README.md section. */
const MEASURED = {
  /** PostgreSQL bytes per history point with its key and daily rollups ("History stores": 93 MB per million points). */
  pgBytesPerPoint: 93,
  /** SQLite bytes per history point ("History stores": 28 MB per million points). */
  sqliteBytesPerPoint: 28,
  /** Server RSS after a 30-minute soak ("Memory: start, idle and a 30-minute soak"). */
  instanceRssMb: 197,
};
/** Per instance: the store's client (src/store/redis.ts) and the stream fan-out's command and subscriber clients (src/streams/redis-fanout.ts). */
const REDIS_CLIENTS_PER_INSTANCE = 3;
/** A Redis key's own overhead (key, expiry, object header) next to its value: an estimate. */
const REDIS_KEY_OVERHEAD_BYTES = 100;
const INSTANCES = [1, 3, 30] as const;
const YEAR_S = 365 * 86400;

const entryBytes = (JSON.parse(readFileSync(new URL('../bench/capacity-entry-bytes.json', import.meta.url), 'utf8')) as { bytes: Record<string, number> })
  .bytes;
const measuredSizes = Object.values(entryBytes);
const meanEntryBytes = measuredSizes.reduce((a, b) => a + b, 0) / Math.max(1, measuredSizes.length);

/** The cities one primary answers: its own list, or for the default primary the covered cities the others leave. */
function citySlugsOf(dt: DataType, r: PrimarySource): readonly string[] {
  if (r.for) return r.for;
  const others = new Set(primariesOf(dt).flatMap((x) => (x === r ? [] : (x.for ?? []))));
  const covered = coveredCities(dt) ?? CITIES.map((c) => c.slug);
  return covered.filter((c) => !others.has(c));
}

/** How many keys one primary fills: its cities, or one for a global type. */
function citiesOf(dt: DataType, r: PrimarySource): number {
  return dt.scope === 'global' ? 1 : citySlugsOf(dt, r).length;
}

interface SourceLoad {
  source: SourceDecl;
  /** Fetches per hour at full coverage, every city asked at least once per fresh window. */
  fetches: number;
  /** Of which by global types, per key (a station board per EVA number): counted once. */
  globalTypes: Set<string>;
  jobRuns: number;
  jobs: Set<string>;
  types: Set<string>;
  /** Cities its per-city primaries answer. */
  cities: Set<string>;
}

function loads(): Map<string, SourceLoad> {
  const config = loadAppConfig({});
  const out = new Map<string, SourceLoad>();
  const at = (src: SourceDecl) => {
    let l = out.get(src.id);
    if (!l) out.set(src.id, (l = { source: src, fetches: 0, globalTypes: new Set(), jobRuns: 0, jobs: new Set(), types: new Set(), cities: new Set() }));
    return l;
  };
  for (const dt of CATALOG.all) {
    for (const r of primariesOf(dt)) {
      const cache = r.cache ?? dt.cache;
      // Stand-ins and failovers answer only while their primary's source is unusable or failing: not steady load.
      for (const src of formOf(dt, r).parts) {
        const l = at(src);
        l.types.add(dt.type);
        if (dt.scope !== 'global') for (const c of citySlugsOf(dt, r)) l.cities.add(c);
        if (cache !== 'stored') {
          l.fetches += (citiesOf(dt, r) * 3600) / cache.freshSeconds;
          if (dt.scope === 'global') l.globalTypes.add(dt.type);
        }
      }
      for (const job of r.jobs ?? []) {
        const l = at(r.source);
        if (l.jobs.has(job.name)) continue;
        l.jobs.add(job.name);
        l.jobRuns += 3_600_000 / intervalOf(job, config);
      }
    }
  }
  return out;
}

const fmt = (n: number) =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 10 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n >= 0.01 ? n.toFixed(2) : '< 0.01';
const cell = (s: string) => s.replace(/\|/g, '\\|');

/** Per upstream host: the fetches the catalog allows at full coverage, job runs, and the published limit. */
export function renderUpstreamTable(): string {
  const config = loadAppConfig({});
  const byHost = new Map<string, SourceLoad[]>();
  for (const l of loads().values()) {
    const host = configuredHosts(config.sources[l.source.id])[0] ?? '(none)';
    byHost.set(host, [...(byHost.get(host) ?? []), l]);
  }
  const rows = [...byHost.entries()]
    .map(([host, ls]) => {
      const fetches = ls.reduce((a, l) => a + l.fetches, 0);
      const runs = ls.reduce((a, l) => a + l.jobRuns, 0);
      const limit = ls.map((l) => l.source.publishedLimit).find((x) => x !== undefined);
      const more = Math.max(...ls.map((l) => configuredHosts(config.sources[l.source.id]).length - 1));
      const globals = [...new Set(ls.flatMap((l) => [...l.globalTypes]))];
      // Our own spacing of calls (ratePerMinute) caps what the cache would let through.
      const caps = ls.filter((l) => l.source.ratePerMinute).map((l) => `\`${l.source.id}\` ${l.source.ratePerMinute}/min`);
      const share = limit?.perHour ? `${((fetches / limit.perHour) * 100).toFixed(fetches / limit.perHour < 0.1 ? 1 : 0)} %` : '–';
      return {
        fetches,
        line: [
          `\`${host}\`${more > 0 ? ` (+${more} more hosts, one per city or state)` : ''}`,
          ls.map((l) => `\`${l.source.id}\``).join(', '),
          String(new Set(ls.flatMap((l) => [...l.cities])).size || '–'),
          fetches ? fmt(fetches) + (globals.length ? ` (${globals.map((g) => `\`${g}\``).join(', ')}: per key)` : '') : '0',
          runs ? fmt(runs) : '–',
          (limit
            ? `${cell(limit.text)} (${limit.ref.startsWith('http') ? `[stated](${limit.ref})` : `quoted in the upstream ${cell(limit.ref)}`})`
            : 'none declared') + (caps.length ? `; this service spaces calls: ${caps.join(', ')} (\`ratePerMinute\`)` : ''),
          share,
        ],
      };
    })
    .sort((a, b) => b.fetches - a.fetches);
  return [
    `Generated by \`npm run capacity-docs\` from the catalog: ${CATALOG.all.length} data types, ${CITIES.length} cities. ` +
      '*Fetches per hour* is the most the cache lets through when every covered city (and every default parameter set) is asked ' +
      'at least once per fresh window: cities covered × 3600 ÷ fresh seconds, summed over the primary sources (and the parts they read) ' +
      'of every source on the host; one fetch makes one upstream call or a few (an OParl paper list follows up to three pages). ' +
      'Global types (a station board per EVA number) count one key each. With Redis, the cluster fetches each key once per window, ' +
      'so the figures hold for 1, 3 or 30 instances. *Job runs* are the jobs of stored types at their default cadence ' +
      '(a run may call the upstream once per city). Stand-ins are left out (they answer only while their source is off or failing). ' +
      'Limits are the ones the sources declare (`publishedLimit`), each with where it is stated.',
    '',
    '| Host | Sources | Cities covered | Fetches per hour at full coverage | Job runs per hour | Published limit | Share of the limit |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.line.join(' | ')} |`),
  ].join('\n');
}

/** What 1, 3 and 30 instances need from Redis and PostgreSQL. */
export function renderStoresTable(): string {
  const all = [...loads().values()];
  const fetchesPerS = all.reduce((a, l) => a + l.fetches, 0) / 3600;
  // Cache entries at full coverage: one per fetched type and city (default parameters), its measured size or the mean.
  let entries = 0;
  let bytes = 0;
  let estimated = 0;
  for (const dt of CATALOG.all) {
    for (const r of primariesOf(dt)) {
      if ((r.cache ?? dt.cache) === 'stored' || dt.scope === 'global') continue;
      const n = citiesOf(dt, r);
      const size = entryBytes[dt.type];
      if (size === undefined) estimated++;
      entries += n;
      bytes += n * ((size ?? meanEntryBytes) + REDIS_KEY_OVERHEAD_BYTES);
    }
  }
  const recordable = CATALOG.all.filter((dt) => dt.history && dt.scope !== 'global');
  const valuesPerS = recordable.reduce((a, dt) => a + (coveredCities(dt)?.length ?? CITIES.length) / cadenceSeconds(dt), 0);
  const pointsPerS = recordable.reduce((a, dt) => a + ((coveredCities(dt)?.length ?? CITIES.length) * dt.history!.fields.length) / cadenceSeconds(dt), 0);
  const pointsPerYear = pointsPerS * YEAR_S;
  const config = loadAppConfig({});
  const gb = (b: number) => `${(b / 1e9).toFixed(1)} GB`;
  const mb = (b: number) => `${Math.round(b / 1e6)} MB`;
  const row = (what: string, f: (n: number) => string, how: string) => `| ${what} | ${INSTANCES.map(f).join(' | ')} | ${how} |`;
  return [
    `Generated by \`npm run capacity-docs\`. Cache entries at full coverage: ${entries.toLocaleString('en-US')} (fetched per-city types × cities); ` +
      `their sizes are measured per type (\`bench/capacity-entry-bytes.json\`, the demo's example answers; ${estimated} source${estimated === 1 ? '' : 's'} without a ` +
      `measurement count${estimated === 1 ? 's' : ''} the mean, ${Math.round(meanEntryBytes).toLocaleString('en-US')} bytes). History: ${recordable.length} recordable types, ` +
      `a point per field and city at each type's cadence (an upper bound: a value is recorded once per upstream timestamp, ` +
      `and many upstreams publish less often than they are asked).`,
    '',
    `| Need | ${INSTANCES.map((n) => `${n} instance${n > 1 ? 's' : ''}`).join(' | ')} | How it is counted |`,
    `|---|${INSTANCES.map(() => '---').join('|')}|---|`,
    row(
      'Redis connections',
      (n) => String(n * REDIS_CLIENTS_PER_INSTANCE),
      `${REDIS_CLIENTS_PER_INSTANCE} clients per instance (store, stream fan-out command and subscriber), one more while a GTFS-RT poll child runs`,
    ),
    row(
      'Redis memory (cache at full coverage)',
      () => mb(bytes),
      `one entry per key for the whole cluster (measured sizes + ${REDIS_KEY_OVERHEAD_BYTES} bytes per key, estimated); stale entries are kept up to their stale window`,
    ),
    row(
      'Redis writes per second (cache fills)',
      () => fetchesPerS.toFixed(1),
      'fetches per hour of the table above ÷ 3600 (one entry write each; locks and breaker keys add a few)',
    ),
    row(
      'PostgreSQL connections',
      (n) => String(n * config.historyPg.poolMax),
      `pool of ${config.historyPg.poolMax} per instance (\`HISTORY_PG_POOL_MAX\`); PostgreSQL's default \`max_connections\` is 100`,
    ),
    row(
      'PostgreSQL writes per second (history)',
      () => `${valuesPerS.toFixed(1)} inserts, ${pointsPerS.toFixed(1)} points`,
      'recordable types × covered cities ÷ cadence; each value is recorded once per cluster (one refresh job per type, cluster lock)',
    ),
    row(
      'History growth per year',
      () => `${(pointsPerYear / 1e6).toFixed(0)} M points, ${gb(pointsPerYear * MEASURED.pgBytesPerPoint)}`,
      `points × ${MEASURED.pgBytesPerPoint} bytes per point on PostgreSQL (measured; SQLite ${MEASURED.sqliteBytesPerPoint} bytes: ${gb(pointsPerYear * MEASURED.sqliteBytesPerPoint)}); kept ${config.historyRetentionDays} days (\`HISTORY_RETENTION_DAYS\`)`,
    ),
    row(
      'Instance memory (RSS)',
      (n) => `${(n * MEASURED.instanceRssMb).toLocaleString('en-US')} MB`,
      `${MEASURED.instanceRssMb} MB per instance after a 30-minute soak (measured)`,
    ),
  ].join('\n');
}

export function updatedOperationsDoc(doc: string): string {
  return replaceSection(replaceSection(doc, 'capacity', renderUpstreamTable()), 'capacity-stores', renderStoresTable());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = new URL('../docs/operations.md', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const updated = updatedOperationsDoc(text);
  if (process.argv.includes('--check')) {
    if (updated !== text) {
      console.error('out of date: docs/operations.md; run npm run capacity-docs');
      process.exit(1);
    }
  } else {
    writeFileSync(file, updated);
    console.log('wrote docs/operations.md (capacity tables)');
  }
}
