import { CITIES, type City } from '../cities/register.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import type { ScheduledJob } from '../core/job.ts';
import { refreshPlaces, type PlacesRefreshOptions } from './pois/places-refresh.ts';
import { duePlaceCities } from './pois/due.ts';

export const PLACES_JOB_NAME = 'places-precompute';
/** Every city's places are recomputed once a week. */
export const PLACES_REFRESH_AFTER_MS = 7 * 24 * 3600_000;
/** Hourly ticks of at most 40 minutes each, so a run ends inside its cluster lock (one interval). */
export const PLACES_TICK_MS = 3600_000;
export const PLACES_RUN_BUDGET_MS = 40 * 60_000;

export interface PlacesJobOptions extends Omit<PlacesRefreshOptions, 'deadline' | 'signal' | 'onProgress'> {
  cities?: readonly City[];
}

export function createPlacesJob(opts: PlacesJobOptions = {}): ScheduledJob {
  const { cities = CITIES, ...refresh } = opts;
  return {
    name: PLACES_JOB_NAME,
    intervalMs: PLACES_TICK_MS,
    initialDelayMs: 90_000,
    enabled: (rt) => rt.sourceEnabled(OVERPASS),
    async run(rt, log, signal) {
      const due = await duePlaceCities(rt.store, cities, PLACES_REFRESH_AFTER_MS);
      if (due.length === 0) return;
      log(`places: ${due.length} cities due`);
      const s = await refreshPlaces(rt, due, {
        ...refresh,
        deadline: Date.now() + PLACES_RUN_BUDGET_MS,
        signal,
        onProgress: (p) => {
          if (p.outcome === 'failed') log(`places: ${p.city} failed: ${p.error}`);
        },
      });
      log(
        `places: ${s.ok} cities stored, ${s.failed} failed, ${s.remaining} left for the next run, ${s.requests} Overpass requests` +
          (s.aborted ? ` (stopped: ${s.aborted})` : ''),
      );
      if (s.ok === 0 && s.failed > 0) throw new Error(`places precompute: every attempted query failed (${s.failed})`);
    },
  };
}

export const PLACES_PRECOMPUTE_JOB = createPlacesJob();
