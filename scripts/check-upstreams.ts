/**
 * `npm run check-upstreams`: calls every enabled upstream once, for each data type's declared
 * example city (and any city given with --city), through the service's own pipeline (real
 * adapter, normaliser, record schema), politely (two checks at a time, each source's own rate
 * limit, the service's User-Agent), and prints a verdict per data type and city. Upstream URLs
 * and credentials come from the same settings as the service's (environment, then `.env`), so
 * the check can be pointed at a mirror or a replay. See docs/operations.md.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadAppConfig, loadDotEnv } from '../src/startup.ts';
import { isConfigError } from '../src/core/config.ts';
import { findCity, suggest } from '../src/cities/resolve.ts';
import type { City } from '../src/cities/register.ts';
import { forCity, forParams } from '../src/core/forms.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { planChecks, type CheckRow } from './check/plan.ts';
import { DEFAULT_RECORD_MAX_BYTES, Recorder, sourceFolders } from './check/recorder.ts';
import { summariseChecks } from '../src/services/upstream-check.ts';
import { compare, counts, parseReport, table } from './check/report.ts';
import { runChecks, type CheckResult } from './check/run.ts';

const USAGE = `usage: npm run check-upstreams -- [options]
  --json FILE              write the report as JSON: a list of {type, city, verdict, detail, source, params}
  --baseline FILE          compare with an earlier --json report; exit 1 when a check regressed
  --record DIR             save every upstream answer with a provenance file under DIR/<source>/recorded/
  --record-max-bytes N     trim recorded answers at N bytes (default ${DEFAULT_RECORD_MAX_BYTES})
  --city SLUG[,SLUG]       check these cities too (per-city types that cover them)
  --type TYPE[,TYPE]       check only these data types
  --source ID[,ID]         check only data types answered by these sources
  --no-jobs                skip stored types (they run their job's download first)
  --concurrency N          checks at a time (1-4, default 2)
  --replay ORIGIN          call ORIGIN instead of every upstream host, keeping the real paths (a mirror or a replay)
exit code: 0 done (no regression against --baseline), 1 a check regressed, 2 usage or configuration error, 3 the check itself failed`;

export interface Io {
  out(line: string): void;
  /** Progress lines. */
  err(line: string): void;
}

const stdio: Io = { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n') };

class UsageError extends Error {}

const listOf = (v: string[] | undefined) =>
  (v ?? [])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);

function citiesOf(names: string[]): City[] {
  return names.map((raw) => {
    const city = findCity(raw);
    if (city) return city;
    const near = suggest(raw);
    throw new UsageError(`unknown city "${raw}"${near ? ` (did you mean ${near.slug}?)` : ''}`);
  });
}

/** The check as a function of its arguments and environment (the tests call it this way); returns the exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv, io: Io = stdio): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        json: { type: 'string' },
        baseline: { type: 'string' },
        record: { type: 'string' },
        'record-max-bytes': { type: 'string' },
        city: { type: 'string', multiple: true },
        type: { type: 'string', multiple: true },
        source: { type: 'string', multiple: true },
        'no-jobs': { type: 'boolean' },
        concurrency: { type: 'string' },
        replay: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
    }).values;
  } catch (err) {
    io.err(`check-upstreams: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    io.out(USAGE);
    return 0;
  }
  const work = mkdtempSync(join(tmpdir(), 'stadtdaten-check-'));
  try {
    return await check(args, env, io, work);
  } catch (err) {
    if (err instanceof UsageError || isConfigError(err)) {
      io.err(`check-upstreams: ${isConfigError(err) ? 'invalid configuration: ' : ''}${err.message}`);
      return 2;
    }
    throw err;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

type Args = {
  json?: string;
  baseline?: string;
  record?: string;
  'record-max-bytes'?: string;
  city?: string[];
  type?: string[];
  source?: string[];
  'no-jobs'?: boolean;
  concurrency?: string;
  replay?: string;
};

/**
 * Every source's base URL and further URLs moved to `origin`, keeping their real paths and queries:
 * how a replay of recorded answers (or the test suite's fake upstream) serves them.
 */
export function replayEnv(origin: string): Record<string, string> {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    throw new UsageError(`--replay needs an origin such as http://127.0.0.1:8080, got "${origin}"`);
  }
  const base = o.origin;
  const env: Record<string, string> = {};
  for (const s of CATALOG.sources) {
    env[`${s.env}_BASE_URL`] = base + new URL(s.baseUrl).pathname.replace(/\/+$/, '');
    for (const u of Object.values(s.urls ?? {})) {
      const real = new URL(u.default);
      env[u.env] = base + real.pathname + real.search;
    }
  }
  return env;
}

async function check(args: Args, env: NodeJS.ProcessEnv, io: Io, work: string): Promise<number> {
  const concurrency = Number(args.concurrency ?? 2);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 4) throw new UsageError('--concurrency must be 1 to 4');
  const maxBytes = Number(args['record-max-bytes'] ?? DEFAULT_RECORD_MAX_BYTES);
  if (!Number.isInteger(maxBytes) || maxBytes < 1024) throw new UsageError('--record-max-bytes must be an integer of at least 1024');
  const cities = citiesOf(listOf(args.city));
  let baseline: CheckResult[] | null = null;
  if (args.baseline) {
    let text: string;
    try {
      text = readFileSync(args.baseline, 'utf8');
    } catch {
      throw new UsageError(`cannot read the baseline ${args.baseline}`);
    }
    try {
      baseline = parseReport(text, args.baseline);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  // The service's settings, with everything that could touch a running deployment kept local:
  // an in-memory store, no shared Redis, the GTFS index in a temporary folder, no background jobs,
  // and no history recorder (a check's values are no observation of the deployment's cities): a
  // DATABASE_URL, REDIS_URL or HISTORY_PATH in the environment or `.env` is left untouched.
  const config = loadAppConfig({
    ...env,
    ...(args.replay ? replayEnv(args.replay) : {}),
    JOBS_ENABLED: 'false',
    REDIS_URL: '',
    DATABASE_URL: '',
    HISTORY_ENABLED: 'false',
    HISTORY_PATH: ':memory:',
    STORE_PATH: join(work, 'check.sqlite'),
    GTFS_RT_POLL_PROCESS: 'inline',
    // The check waits for every fetch (the fetch deadline still ends a hung one).
    REQUEST_BUDGET_MS: '120000',
    RATE_LIMIT_ENABLED: 'false',
  });
  const built = await buildApp(config, { store: new SqliteStore(':memory:'), logger: false });
  try {
    const catalog = built.rt.catalog;
    const types = listOf(args.type);
    const unknownType = types.find((t) => !catalog.byType.has(t));
    if (unknownType) throw new UsageError(`unknown data type "${unknownType}"; GET /api/v1/openapi.yaml lists them`);
    const sources = listOf(args.source);
    const unknownSource = sources.find((s) => !config.sourceList.some((x) => x.id === s));
    if (unknownSource) throw new UsageError(`unknown source "${unknownSource}"; GET /api/v1/sources lists them`);
    let rows = planChecks(catalog, (dt) => built.rt.answering(dt), { types, sources, cities });
    const stored = (r: CheckRow) => (r.city ? forCity(r.declared, r.city.slug) : forParams(r.declared, r.params)).cache === 'stored';
    const skipped = args['no-jobs'] ? rows.filter(stored) : [];
    if (skipped.length) rows = rows.filter((r) => !stored(r));
    const recorder = args.record ? new Recorder(args.record, config, await sourceFolders(config.sourceList), maxBytes) : undefined;

    io.err(`check-upstreams: ${rows.length} checks, ${concurrency} at a time, User-Agent "${config.userAgent}"`);
    let done = 0;
    const results = await runChecks(built, rows, {
      concurrency,
      recorder,
      onResult: (r) => io.err(`[${++done}/${rows.length}] ${r.type} ${r.city ?? ''} ${r.verdict}`),
    });
    io.out(table(results));
    io.out('');
    io.out(counts(results));
    if (skipped.length) io.out(`not checked (--no-jobs): ${[...new Set(skipped.map((r) => r.type))].join(', ')}`);
    if (args.json) {
      writeFileSync(args.json, JSON.stringify(results, null, 2) + '\n');
      io.out(`report written to ${args.json}`);
    }
    if (config.checkUpstreamsResultPath) {
      // The service shows each source's last verdict in /api/v1/sources.
      writeFileSync(config.checkUpstreamsResultPath, JSON.stringify(summariseChecks(results, new Date()), null, 2) + '\n');
      io.out(`verdicts per source written to ${config.checkUpstreamsResultPath}`);
    }
    if (recorder) io.out(`${recorder.files.length} answers recorded under ${args.record} (index: ${recorder.writeIndex()})`);
    if (!baseline) return 0;
    const changes = compare(baseline, results);
    const regressions = changes.filter((c) => c.regression);
    for (const c of changes)
      io.out(`${c.regression ? 'REGRESSION' : 'changed   '} ${c.type} ${c.city ?? '-'} (${c.source}): ${c.was} -> ${c.now}: ${c.detail}`);
    io.out(regressions.length ? `${regressions.length} regressions against ${args.baseline}` : `no regression against ${args.baseline}`);
    return regressions.length ? 1 : 0;
  } finally {
    await built.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  loadDotEnv();
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (err) => {
      console.error('check-upstreams failed:', err instanceof Error ? err.message : err);
      process.exit(3);
    },
  );
}
