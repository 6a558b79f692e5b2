import type { Config } from '../config.ts';
import type { ScheduledJob } from './scheduler.ts';
import { gtfsRtPoller } from './gtfs/rt-poller.ts';
import { gtfsStaticJob } from './gtfs/static.ts';
import { chargingPrecompute } from './charging-precompute.ts';
import { POIS_PRECOMPUTE_JOB } from './pois-precompute.ts';
import { solarRoofsPrecompute } from './solar-roofs-precompute.ts';
import { PLACES_PRECOMPUTE_JOB } from './places-precompute.ts';
import { GEO_PRECOMPUTE_JOB } from './geo-precompute.ts';
import { accidentsIngest } from './accidents-ingest.ts';
import { crimeStatsIngest } from './crime-stats-ingest.ts';
import { tendersIngest } from './tenders-ingest.ts';
import { bikeCountsPrecompute } from './bike-counts-precompute.ts';
import { sustainabilityPrecompute } from './sustainability-precompute.ts';

/** Every background job of the service (pollers and precomputes), with the configured cadences. */
export function jobsFor(config: Pick<Config, 'gtfsRtPollIntervalS'>): ScheduledJob[] {
  return [
    gtfsStaticJob,
    gtfsRtPoller(config.gtfsRtPollIntervalS * 1000),
    chargingPrecompute,
    POIS_PRECOMPUTE_JOB,
    solarRoofsPrecompute,
    PLACES_PRECOMPUTE_JOB,
    GEO_PRECOMPUTE_JOB,
    accidentsIngest,
    crimeStatsIngest,
    tendersIngest,
    bikeCountsPrecompute,
    sustainabilityPrecompute,
  ];
}
