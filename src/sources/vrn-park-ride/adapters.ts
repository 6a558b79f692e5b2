import type { Adapter } from '../../core/data-type.ts';
import type { ParkAndRideRecord } from '../../core/records/mobility.ts';
import { distanceKm } from '../../cities/register.ts';
import { occupancyShare } from '../city-parking/sites.ts';
import { withFreshness } from '../city-parking/sites.ts';
import { parseVrnSites } from './sites.ts';

/** P+R sites serve commuters into the city from its surroundings: sites within this distance of the city point count. */
export const PARK_RIDE_RADIUS_KM = 20;

/** The VRN region's cities among the register (the sensor layer covers the Rhein-Neckar area only). */
export const PARK_RIDE_CITIES: readonly string[] = ['heidelberg', 'mannheim', 'ludwigshafen-am-rhein'];

/** The whole layer (a few dozen sites) is fetched once per cache window and shared by the three cities. */
export const vrnParkAndRide: Adapter<ParkAndRideRecord[]> = async (ctx) => {
  const { city, now } = ctx;
  const sites = await ctx.cached('layer', { freshSeconds: 120, staleSeconds: 900 }, async () =>
    parseVrnSites(await ctx.http.json('/query', { query: { where: '1=1', outFields: '*', f: 'geojson' } })),
  );
  const near = sites
    .map((s) => withFreshness(s, now))
    .map((s) => ({
      ...s,
      occupancy_share: occupancyShare(s.free_spaces, s.capacity),
      distance_km: s.lat === null || s.lon === null ? null : Math.round(distanceKm(city.lat, city.lon, s.lat, s.lon) * 10) / 10,
    }))
    .filter((s) => s.distance_km !== null && s.distance_km <= PARK_RIDE_RADIUS_KM)
    .sort((a, b) => (a.distance_km ?? 0) - (b.distance_km ?? 0));
  if (near.length === 0)
    return { data: null, status: 'no_data', meta: { reason: `no sensor-equipped P+R site within ${PARK_RIDE_RADIUS_KM} km`, radius_km: PARK_RIDE_RADIUS_KM } };
  return { data: near, meta: { radius_km: PARK_RIDE_RADIUS_KM } };
};
