import type { ScheduledJob } from './scheduler.ts';
import { gtfsRtPoller } from './gtfs-rt-poller.ts';
import { gtfsStaticJob } from './gtfs-static.ts';
import { chargingPrecompute } from './charging-precompute.ts';
import { POIS_PRECOMPUTE_JOB } from './pois-precompute.ts';

/** Every background job of the service (pollers and precomputes). */
export const JOBS: ScheduledJob[] = [
  gtfsStaticJob,
  gtfsRtPoller(),
  chargingPrecompute,
  POIS_PRECOMPUTE_JOB,
];
