import { CITIES, type City } from '../cities/register.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import { POI_TYPES } from '../sources/overpass/poi-types.ts';
import type { ScheduledJob } from '../core/job.ts';
import { duePoiCities } from './pois/due.ts';
import { refreshPois, type PoisRefreshOptions } from './pois/refresh.ts';

/** Every city's POI types are recomputed once a week. */
export const POIS_REFRESH_AFTER_MS = 7 * 24 * 3600_000;
/**
 * The weekly refresh rolls: every hour the job starts queries for at most 40 minutes on the
 * cities that are due, so a restart loses little and a run (its last query included) ends
 * inside the cluster lock, which lasts one interval.
 */
export const POIS_TICK_MS = 3600_000;
export const POIS_RUN_BUDGET_MS = 40 * 60_000;

export interface PoisJobOptions extends Omit<PoisRefreshOptions, 'deadline' | 'signal' | 'onProgress'> {
  cities?: readonly City[];
}

export function createPoisJob(opts: PoisJobOptions = {}): ScheduledJob {
  const { cities = CITIES, ...refresh } = opts;
  return {
    name: 'pois-precompute',
    intervalMs: POIS_TICK_MS,
    initialDelayMs: 60_000,
    enabled: (rt) => rt.sourceEnabled(OVERPASS),
    async run(rt, log, signal) {
      const due = await duePoiCities(rt.store, cities, refresh.types ?? POI_TYPES, POIS_REFRESH_AFTER_MS);
      if (due.length === 0) return;
      log(`pois: ${due.length} cities due`);
      const s = await refreshPois(rt, due, {
        ...refresh,
        deadline: Date.now() + POIS_RUN_BUDGET_MS,
        signal,
        onProgress: (p) => {
          if (p.outcome === 'failed') log(`pois: ${p.city} failed: ${p.error}`);
        },
      });
      log(
        `pois: ${s.ok} cities stored, ${s.failed} failed, ${s.remaining} left for the next run, ${s.requests} Overpass requests` +
          (s.aborted ? ` (stopped: ${s.aborted})` : ''),
      );
      if (s.ok === 0 && s.failed > 0) throw new Error(`pois precompute: every attempted query failed (${s.failed})`);
    },
  };
}

export const POIS_PRECOMPUTE_JOB = createPoisJob();
