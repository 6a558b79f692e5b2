import type { City } from '../../cities/register.ts';
import type { JobHost, ScheduledJob } from '../../core/job.ts';
import type { Store } from '../../core/store.ts';
import { OVERPASS } from '../../sources/overpass/source.ts';
import type { CityProgress, CityRefreshOptions, CityRefreshSummary } from './city-refresh.ts';

/** Every city's Overpass answers are recomputed once a week. */
export const OVERPASS_REFRESH_AFTER_MS = 7 * 24 * 3600_000;
/**
 * The weekly refresh rolls: every hour the job starts queries for at most 40 minutes on the
 * cities that are due, so a restart loses little and a run (its last query included) ends
 * inside the cluster lock, which lasts one interval.
 */
export const OVERPASS_TICK_MS = 3600_000;
export const OVERPASS_RUN_BUDGET_MS = 40 * 60_000;

/** One rolling Overpass precompute: which cities are due, and how they are refreshed. */
export interface RollingJobDecl<O extends CityRefreshOptions> {
  name: string;
  /** The word its log lines start with (`pois`, `places`). */
  what: string;
  initialDelayMs: number;
  due(store: Store, cities: readonly City[], maxAgeMs: number): Promise<City[]>;
  refresh(host: JobHost, cities: readonly City[], opts: O): Promise<CityRefreshSummary>;
}

/**
 * The scheduled job of a rolling precompute (POIs, places): each tick refreshes the due cities
 * within the run budget, logs per failed city and a summary, and fails only when every attempted
 * query failed.
 */
export function rollingJob<O extends CityRefreshOptions>(
  decl: RollingJobDecl<O>,
  cities: readonly City[],
  refresh: Omit<O, 'deadline' | 'signal' | 'onProgress'>,
): ScheduledJob {
  return {
    name: decl.name,
    intervalMs: OVERPASS_TICK_MS,
    initialDelayMs: decl.initialDelayMs,
    enabled: (host) => host.sourceEnabled(OVERPASS),
    async run(host, log, signal) {
      const due = await decl.due(host.store, cities, OVERPASS_REFRESH_AFTER_MS);
      if (due.length === 0) return;
      log(`${decl.what}: ${due.length} cities due`);
      const s = await decl.refresh(host, due, {
        ...refresh,
        deadline: Date.now() + OVERPASS_RUN_BUDGET_MS,
        signal,
        onProgress: (p: CityProgress) => {
          if (p.outcome === 'failed') log(`${decl.what}: ${p.city} failed: ${p.error}`);
        },
      } as O);
      log(
        `${decl.what}: ${s.ok} cities stored, ${s.failed} failed, ${s.remaining} left for the next run, ${s.requests} Overpass requests` +
          (s.aborted ? ` (stopped: ${s.aborted})` : ''),
      );
      if (s.ok === 0 && s.failed > 0) throw new Error(`${decl.what} precompute: every attempted query failed (${s.failed})`);
    },
  };
}
