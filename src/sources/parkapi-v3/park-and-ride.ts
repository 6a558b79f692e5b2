import type { Adapter } from '../../core/data-type.ts';
import type { ParkAndRideRecord } from '../../core/records/mobility.ts';
import { newestUpdate } from '../city-parking/sites.ts';
import { PARK_RIDE_RADIUS_KM, parkAndRideNear } from '../city-parking/park-and-ride.ts';
import { mergeSites } from '../city-parking/merge.ts';
import { PARKAPI_PARK_RIDE, asParkingSite, readParkapi } from './sites.ts';

/** Cities whose P+R sites ParkAPI v3 serves from an openly licensed source (the park-and-ride variant). */
export const PARKAPI_PARK_RIDE_CITIES: readonly string[] = Object.keys(PARKAPI_PARK_RIDE).sort();

/**
 * P+R sites of the city's ParkAPI v3 P+R sources within the radius, nearest first. Static sites
 * keep their capacity without a count; a count older than the guard is dropped (free_spaces null).
 */
export const parkapiParkAndRide: Adapter<ParkAndRideRecord[]> = async (ctx) => {
  const { city, now } = ctx;
  const all = (await readParkapi(ctx, PARKAPI_PARK_RIDE[city.slug] ?? [])).map(asParkingSite);
  // The sensor layer comes first: a site both layers list keeps its live count.
  const { sites, duplicates } = mergeSites([...new Set(all.map((s) => s.source))].map((source) => ({ source, sites: all.filter((s) => s.source === source) })));
  const near = parkAndRideNear(sites, city, now);
  if (near.length === 0)
    return { data: null, status: 'no_data', meta: { reason: `no P+R site within ${PARK_RIDE_RADIUS_KM} km`, radius_km: PARK_RIDE_RADIUS_KM } };
  const as_of = newestUpdate(near);
  return {
    data: near,
    as_of,
    meta: {
      radius_km: PARK_RIDE_RADIUS_KM,
      merged_sources: [...new Set(all.map((s) => s.source))],
      ...(Object.keys(duplicates).length ? { duplicates_left_out: duplicates } : {}),
    },
  };
};
