import { CITIES, type City } from '../cities/register.ts';
import { POI_TYPES } from '../sources/overpass/poi-types.ts';
import type { ScheduledJob } from '../core/job.ts';
import { duePoiCities } from './pois/due.ts';
import { refreshPois, type PoisRefreshOptions } from './pois/refresh.ts';
import { rollingJob } from './pois/rolling-job.ts';

export interface PoisJobOptions extends Omit<PoisRefreshOptions, 'deadline' | 'signal' | 'onProgress'> {
  cities?: readonly City[];
}

/** The weekly rolling POI precompute (every POI type of a city in one Overpass query). */
export function createPoisJob(opts: PoisJobOptions = {}): ScheduledJob {
  const { cities = CITIES, ...refresh } = opts;
  return rollingJob(
    {
      name: 'pois-precompute',
      what: 'pois',
      initialDelayMs: 60_000,
      due: (store, due, maxAgeMs) => duePoiCities(store, due, refresh.types ?? POI_TYPES, maxAgeMs),
      refresh: refreshPois,
    },
    cities,
    refresh,
  );
}

export const POIS_PRECOMPUTE_JOB = createPoisJob();
