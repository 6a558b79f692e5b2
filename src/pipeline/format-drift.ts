import type { ScheduledJob } from '../core/job.ts';
import { dataSchemaOf, type AdapterResult, type AnsweringSource, type DataType } from '../core/data-type.ts';
import type { Form } from '../core/forms.ts';
import { normalise } from '../core/normalise.ts';
import { checkAgainst, driftMessage, FormatDriftError, isFormatDrift } from '../core/format-drift-error.ts';
import { toBerlinIso } from '../core/time.ts';
import type { Metrics } from '../metrics.ts';

/** A drifting source is logged at most once per this interval, however many requests meet it. */
export const DRIFT_LOG_INTERVAL_MS = 3600_000;

/** How a source's format drift shows in /api/v1/sources. */
export interface DriftView {
  /** The first failure since the source started drifting, and when it happened. */
  first_error: string;
  since: string;
  last_seen: string;
  /** Fetches that failed this way since then. */
  count: number;
  /** Data types whose latest fetch of this source failed this way. */
  types: string[];
}

interface Mark {
  firstError: string;
  since: number;
  lastSeen: number;
  count: number;
  types: Set<string>;
  loggedAt: number;
}

/** What every watched fetch reports: the data type (the form that answered) and its failure, or null. */
export type FetchListener = (dt: Form, failure: unknown) => void;

/**
 * Format drift per source in this process: set by the first fetch whose answer its adapter or
 * record schema rejects, cleared once every data type that met it has fetched a valid record again.
 */
export class DriftLedger {
  private readonly marks = new Map<string, Mark>();
  private readonly listeners = new Set<FetchListener>();

  private readonly clock: () => number;
  constructor(clock: () => number = Date.now) {
    this.clock = clock;
  }

  /** Notes a drifting fetch; true when the source's log line is due (the first, then one per hour). */
  record(source: string, type: string, error: string): boolean {
    const now = this.clock();
    let m = this.marks.get(source);
    if (!m) {
      m = { firstError: error, since: now, lastSeen: now, count: 0, types: new Set(), loggedAt: -Infinity };
      this.marks.set(source, m);
    }
    m.count++;
    m.lastSeen = now;
    m.types.add(type);
    if (now - m.loggedAt < DRIFT_LOG_INTERVAL_MS) return false;
    m.loggedAt = now;
    return true;
  }

  /** A fetch of `type` passed its schema: true when that ended the source's drift. */
  recovered(source: string, type: string): boolean {
    const m = this.marks.get(source);
    if (!m || !m.types.delete(type) || m.types.size > 0) return false;
    this.marks.delete(source);
    return true;
  }

  view(source: string): DriftView | null {
    const m = this.marks.get(source);
    if (!m) return null;
    return { first_error: m.firstError, since: toBerlinIso(m.since), last_seen: toBerlinIso(m.lastSeen), count: m.count, types: [...m.types].sort() };
  }

  /** Ids of the sources drifting now. */
  drifting(): string[] {
    return [...this.marks.keys()].sort();
  }

  /** Hears every watched fetch's outcome (the upstream check reads the raw failure of each data type). */
  listen(fn: FetchListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  settled(dt: Form, failure: unknown) {
    for (const fn of this.listeners) fn(dt, failure);
  }
}

/** What a watched fetch reports to: the source health that holds the ledger, the metrics and the log. */
export interface DriftDeps {
  health: { drift: DriftLedger; failure(id: string, error: string): void };
  metrics: Pick<Metrics, 'formatDrift'>;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/**
 * Items of a long list checked on each fetch: a format change shows in every item, and checking
 * every item of a list of tens of thousands would cost more than the fetch (bench/README.md,
 * "Figures behind code comments"), so a long list is checked on an even spread of this many.
 */
export const CHECKED_ITEMS = 1000;

function spread<T>(items: readonly T[]): readonly T[] {
  if (items.length <= CHECKED_ITEMS) return items;
  const step = (items.length - 1) / (CHECKED_ITEMS - 1);
  return Array.from({ length: CHECKED_ITEMS }, (_, i) => items[Math.round(i * step)]!);
}

/** The data as checked: a long list (the data, or the record's list member) cut to an even spread of its items. */
export function checkedPart(dt: DataType, data: unknown): unknown {
  if (dt.list === true) return Array.isArray(data) ? spread(data) : data;
  if (typeof dt.list === 'string' && data && typeof data === 'object') {
    const list = (data as Record<string, unknown>)[dt.list];
    if (Array.isArray(list) && list.length > CHECKED_ITEMS) return { ...data, [dt.list]: spread(list) };
  }
  return data;
}

/**
 * One fetch of a fetched (cached) data type, watched for format drift: its data normalised and
 * checked against the record schema. A failure that says the upstream's format changed marks the
 * source (first error, time), counts in `stadtdaten_format_drift_total` and is logged once per
 * source and hour; it is rethrown, so the cache answers STALE-ON-ERROR as for any failure.
 */
export async function watchedFetch(deps: DriftDeps, dt: Form, fetch: () => Promise<AdapterResult>): Promise<AdapterResult> {
  let result: AdapterResult;
  try {
    result = await fetch();
    result = { ...result, data: normaliseChecked(dt, result.data) };
  } catch (err) {
    if (isFormatDrift(err)) noteDrift(deps, dt.source.id, [dt.type], err);
    deps.health.drift.settled(dt, err);
    throw err;
  }
  if (deps.health.drift.recovered(dt.source.id, dt.type))
    deps.log.info({ source: dt.source.id, type: dt.type }, 'format drift over: answers match the schema again');
  deps.health.drift.settled(dt, null);
  return result;
}

function normaliseChecked(dt: DataType, data: unknown): unknown {
  let out: unknown;
  try {
    out = normalise(data);
  } catch (err) {
    throw new FormatDriftError(`normaliser: ${driftMessage(err)}`);
  }
  checkAgainst(dataSchemaOf(dt), checkedPart(dt, out));
  return out;
}

/**
 * A run of a job that feeds stored types (its own download and parser): a failure that says the
 * format changed marks the sources of the types it writes, as a fetch would; a successful run
 * ends their drift.
 */
export function watchedJob(deps: DriftDeps & { catalog: { all: readonly DataType[] } }, job: ScheduledJob, failure: unknown) {
  // The listed sources whose adapters read what this job writes, by source.
  const bySource = new Map<string, string[]>();
  for (const dt of deps.catalog.all) {
    for (const r of dt.sources.filter((s): s is AnsweringSource => s.role !== 'part')) {
      // By name: a job is one name (its cluster lock), whichever copy of it ran.
      if (r.jobs?.some((j) => j.name === job.name)) bySource.set(r.source.id, [...new Set([...(bySource.get(r.source.id) ?? []), dt.type])]);
    }
  }
  if (failure === null) {
    for (const [source, types] of bySource) for (const type of types) deps.health.drift.recovered(source, type);
    return;
  }
  if (!isFormatDrift(failure)) return;
  for (const [source, of] of bySource) noteDrift(deps, source, of, failure);
}

function noteDrift(deps: DriftDeps, source: string, types: readonly string[], err: unknown) {
  const error = driftMessage(err);
  deps.metrics.formatDrift.inc({ source });
  deps.health.failure(source, `format drift: ${error}`);
  let due = false;
  for (const type of types) due = deps.health.drift.record(source, type, error) || due;
  if (due) {
    deps.log.warn(
      { source, types, error, since: deps.health.drift.view(source)?.since },
      `format drift: ${source} answers in a format its adapter does not know; cached values are served STALE-ON-ERROR (logged once per hour)`,
    );
  }
}
