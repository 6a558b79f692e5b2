import { CITIES, type City } from '../cities/register.ts';
import type { ScheduledJob } from '../core/job.ts';
import { refreshPlaces, type PlacesRefreshOptions } from './pois/places-refresh.ts';
import { duePlaceCities } from './pois/due.ts';
import { rollingJob } from './pois/rolling-job.ts';

export interface PlacesJobOptions extends Omit<PlacesRefreshOptions, 'deadline' | 'signal' | 'onProgress'> {
  cities?: readonly City[];
}

/** The weekly rolling precompute of the OSM place types (one Overpass query per city for all of them). */
export function createPlacesJob(opts: PlacesJobOptions = {}): ScheduledJob {
  const { cities = CITIES, ...refresh } = opts;
  return rollingJob({ name: 'places-precompute', what: 'places', initialDelayMs: 90_000, due: duePlaceCities, refresh: refreshPlaces }, cities, refresh);
}

export const PLACES_PRECOMPUTE_JOB = createPlacesJob();
