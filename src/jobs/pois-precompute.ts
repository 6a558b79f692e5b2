import { CITIES, type City } from '../cities/register.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import { POI_TYPES } from '../sources/overpass/poi-types.ts';
import type { ScheduledJob } from './scheduler.ts';
import { dueTargets } from './pois/due.ts';
import { refreshPois, type RefreshOptions } from './pois/refresh.ts';

/** Every city/type pair is recomputed once a week. */
export const POIS_REFRESH_AFTER_MS = 7 * 24 * 3600_000;
/**
 * The weekly refresh rolls: every hour the job starts queries for at most 40 minutes on the
 * pairs that are due, so a restart loses little and a run (its last query included) ends
 * inside the cluster lock, which lasts one interval.
 */
export const POIS_TICK_MS = 3600_000;
export const POIS_RUN_BUDGET_MS = 40 * 60_000;

export interface PoisJobOptions extends Omit<RefreshOptions, 'deadline' | 'signal' | 'onProgress'> {
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
      const targets = await dueTargets(rt.store, cities, POI_TYPES, POIS_REFRESH_AFTER_MS);
      if (targets.length === 0) return;
      log(`pois: ${targets.length} city/type pairs due`);
      const s = await refreshPois(rt, targets, {
        ...refresh,
        deadline: Date.now() + POIS_RUN_BUDGET_MS,
        signal,
        onProgress: (p) => {
          if (p.outcome === 'failed') log(`pois: ${p.city} ${p.type} failed: ${p.error}`);
        },
      });
      log(`pois: ${s.ok} stored, ${s.failed} failed, ${s.remaining} left for the next run${s.aborted ? ` (stopped: ${s.aborted})` : ''}`);
      if (s.ok === 0 && s.failed > 0) throw new Error(`pois precompute: every attempted query failed (${s.failed})`);
    },
  };
}

export const POIS_PRECOMPUTE_JOB = createPoisJob();
