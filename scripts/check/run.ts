import type { ScheduledJob } from '../../src/core/job.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { App } from '../../src/app.ts';
import { checkAgainst } from '../../src/core/format-drift-error.ts';
import { dataSchemaOf } from '../../src/core/data-type.ts';
import { forCity, forParams, type Form } from '../../src/core/forms.ts';
import type { SourceDecl } from '../../src/core/source.ts';
import type { City } from '../../src/cities/register.ts';
import type { CheckRow } from './plan.ts';
import { JobRunner, failureLine, type JobRun } from './jobs.ts';
import type { Recorder } from './recorder.ts';
import { answerOf, disabledDetail, failureFinding, summarise, type Answer, type Finding, type Verdict } from './verdict.ts';

/** One line of the report (and of the `--json` file). */
export interface CheckResult {
  type: string;
  /** Canonical slug; null for a global type (per station, nationwide). */
  city: string | null;
  verdict: Verdict;
  detail: string;
  /** The upstream that answered (a variant's or the fallback's where one did). */
  source: string;
  params?: Record<string, string>;
}

export interface RunOptions {
  /** Checks in flight at once (default 2); each source's own rate limit applies besides. */
  concurrency?: number;
  recorder?: Recorder;
  /** Called as each check finishes (progress output). */
  onResult?: (r: CheckResult) => void;
}

/** What the calls made for one check (or one job run) belong to, followed through every await. */
interface Scope {
  source: SourceDecl;
  types: string[];
  /** The data type key whose fetch failure is this check's (the form's `type`). */
  typeKey?: string;
  last?: Answer;
  failure?: unknown;
}

/**
 * Runs the planned checks through the service's own pipeline (settings, variants and fallbacks,
 * breaker, the real adapter, normaliser and record schema) on a fresh in-memory cache, so every
 * check calls its upstream. Stored types first run their job (see jobs.ts).
 */
export async function runChecks(built: Pick<App, 'rt' | 'pipeline'>, rows: readonly CheckRow[], opts: RunOptions = {}): Promise<CheckResult[]> {
  const { rt } = built;
  const scopes = new AsyncLocalStorage<Scope>();
  const stopObserving = rt.upstream.observe((e) => {
    const scope = scopes.getStore();
    if (scope) scope.last = answerOf(e);
    opts.recorder?.record(e, scope?.source, scope?.types ?? []);
  });
  const stopListening = rt.health.drift.listen((dt, failure) => {
    const scope = scopes.getStore();
    if (scope && failure !== null && dt.type === scope.typeKey) scope.failure ??= failure;
  });
  const jobScopes = new Map<string, Scope>();
  const readers = (jobs: readonly ScheduledJob[]) => rows.filter((r) => sameJobs(formOf(r).jobs, jobs));
  const jobs = new JobRunner(rt, (run) => uniqueCities(readers(run)));
  const runJob = (row: CheckRow, run: readonly ScheduledJob[]): Promise<[JobRun, Scope]> => {
    const name = run.map((j) => j.name).join('+');
    let scope = jobScopes.get(name);
    if (!scope) {
      scope = { source: formOf(row).source, types: [...new Set(readers(run).map((r) => r.type))] };
      jobScopes.set(name, scope);
    }
    const s = scope;
    return scopes.run(s, () => jobs.run(run)).then((result) => [result, s]);
  };

  const checkOne = async (row: CheckRow): Promise<CheckResult> => {
    const scope: Scope = { source: row.source, types: [row.type], typeKey: row.declared.type };
    const finding = await scopes.run(scope, () => findingOf(built, row, scope, runJob));
    const result: CheckResult = { type: row.type, city: row.city?.slug ?? null, verdict: finding.verdict, detail: finding.detail, source: row.source.id };
    if (Object.keys(row.params).length) result.params = row.params;
    opts.onResult?.(result);
    return result;
  };
  try {
    return await inPool(rows, Math.max(1, opts.concurrency ?? 2), checkOne);
  } finally {
    stopObserving();
    stopListening();
  }
}

function sameJobs(a: readonly ScheduledJob[], b: readonly ScheduledJob[]): boolean {
  return a.length === b.length && a.every((j, i) => j === b[i]);
}

/** The form of the data type that answers the row (its primary for the row's city or value). */
function formOf(row: CheckRow): Form {
  return row.city ? forCity(row.declared, row.city.slug) : forParams(row.declared, row.params);
}

async function findingOf(
  { rt, pipeline }: Pick<App, 'rt' | 'pipeline'>,
  row: CheckRow,
  scope: Scope,
  runJob: (row: CheckRow, jobs: readonly ScheduledJob[]) => Promise<[JobRun, Scope]>,
): Promise<Finding> {
  if (!rt.sourceEnabled(row.source)) return { verdict: 'disabled', detail: disabledDetail(row.source, rt.settings(row.source)) };
  const form = formOf(row);
  let job: [JobRun, Scope] | null = null;
  if (form.cache === 'stored' && form.jobs.length) {
    job = await runJob(row, form.jobs);
    if (job[0].error) return failureFinding(job[0].error, job[1].last);
  }
  let outcome;
  try {
    outcome = await pipeline.run(row.declared, row.city, row.params, { noPaging: true });
  } catch (err) {
    if (scope.failure === undefined && rt.breakers.localState(row.source) === 'OPEN') {
      return { verdict: 'http_error', detail: 'not called: this source failed repeatedly in this run (breaker open)' };
    }
    return failureFinding(scope.failure ?? err, scope.last);
  }
  const meta = outcome.meta;
  switch (outcome.status) {
    case 'disabled':
      return { verdict: 'disabled', detail: disabledDetail(row.source, rt.settings(row.source)) };
    case 'not_covered':
      return { verdict: 'no_data', detail: `not covered: ${String(meta.note ?? '')}` };
    case 'no_data': {
      const failed = job ? failureLine(job[0], row.city) : null;
      if (failed && job) return { verdict: (job[1].last?.status ?? 200) >= 400 ? 'http_error' : 'parse_error', detail: `job ${job[0].name}: ${failed}` };
      return { verdict: 'no_data', detail: String(meta.reason ?? meta.note ?? 'the source answered, with nothing for this request') };
    }
    default: {
      const data = outcome.data();
      try {
        checkAgainst(dataSchemaOf(row.declared), data);
      } catch (err) {
        return failureFinding(err, scope.last);
      }
      // Named only when a stand-in answered: a type with a failure stand-in names its answering source every time.
      const via = meta.fallback_for ? ` (answered by ${String(meta.answered_by)})` : '';
      return { verdict: 'ok', detail: summarise(data) + via };
    }
  }
}

function uniqueCities(rows: readonly CheckRow[]): City[] {
  return [...new Map(rows.filter((r) => r.city).map((r) => [r.city!.slug, r.city!])).values()];
}

/** `fn` over `items` with at most `n` in flight, results in the order of `items`. */
async function inPool<T, R>(items: readonly T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}
