import type { Config } from './config.ts';
import type { Metrics } from '../metrics.ts';
import type { SourceDecl } from './source.ts';
import type { SourceHttp } from './adapter-http.ts';
import type { Store } from './store.ts';

/**
 * What a background job gets from the app: the same per-source HTTP clients, store and settings
 * the request path uses. The pipeline's Runtime provides it; jobs depend on this contract only,
 * so the catalog can name a stored type's job as a value (jobs sit below the catalog).
 */
export interface JobHost {
  readonly config: Config;
  readonly store: Store;
  readonly metrics: Metrics;
  readonly log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** A source's last success or failure, as the request path records it (GET /api/v1/sources). */
  readonly health: { success(sourceId: string): void; failure(sourceId: string, why: string): void };
  http(src: SourceDecl): SourceHttp;
  /** Switched on and with every credential it needs. */
  sourceEnabled(src: SourceDecl): boolean;
  /** A run ended (failure null: it succeeded): a parser rejecting its download marks format drift on the sources it writes for. */
  jobFinished(job: ScheduledJob, failure: unknown): void;
}

/**
 * A background job that fills the store a stored data type reads: runs every `intervalMs`, once
 * per cluster (a store lock that outlives the run), and only while it is enabled. The catalog
 * names it on the type's reading (`Reading.job`), so the scheduler runs exactly the jobs of the
 * types the settings leave usable.
 */
export interface ScheduledJob {
  name: string;
  /** Its cadence, which a setting may decide (e.g. GTFS_RT_POLL_INTERVAL_S). */
  intervalMs: number | ((config: Config) => number);
  /** First run after this delay (default: at once). */
  initialDelayMs?: number;
  enabled(host: JobHost): boolean;
  /** `signal` aborts on shutdown, so long runs (precomputes) can stop between steps. */
  run(host: JobHost, log: (msg: string) => void, signal: AbortSignal): Promise<void>;
}

export function intervalOf(job: ScheduledJob, config: Config): number {
  return typeof job.intervalMs === 'number' ? job.intervalMs : job.intervalMs(config);
}
