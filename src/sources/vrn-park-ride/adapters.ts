import type { Adapter } from '../../core/data-type.ts';
import type { ParkAndRideRecord } from '../../core/records/mobility.ts';
import { PARK_RIDE_RADIUS_KM, parkAndRideNear } from '../city-parking/park-and-ride.ts';
import { parseVrnSites } from './sites.ts';

/** The VRN region's cities among the register (the sensor layer covers the Rhein-Neckar area only). */
export const PARK_RIDE_CITIES: readonly string[] = ['heidelberg', 'mannheim', 'ludwigshafen-am-rhein'];

/** The whole layer (a few dozen sites) is fetched once per cache window and shared by the three cities. */
export const vrnParkAndRide: Adapter<ParkAndRideRecord[]> = async (ctx) => {
  const { city, now } = ctx;
  const sites = await ctx.cached('layer', { freshSeconds: 120, staleSeconds: 900 }, async () =>
    parseVrnSites(await ctx.http.json('/query', { query: { where: '1=1', outFields: '*', f: 'geojson' } })),
  );
  const near = parkAndRideNear(sites, city, now);
  if (near.length === 0)
    return { data: null, status: 'no_data', meta: { reason: `no sensor-equipped P+R site within ${PARK_RIDE_RADIUS_KM} km`, radius_km: PARK_RIDE_RADIUS_KM } };
  return { data: near, meta: { radius_km: PARK_RIDE_RADIUS_KM } };
};
