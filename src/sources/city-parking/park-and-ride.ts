import type { City } from '../../cities/register.ts';
import { distanceKm } from '../../cities/register.ts';
import type { ParkAndRideRecord, ParkingSiteRecord } from '../../core/records/mobility.ts';
import { occupancyShare, withFreshness } from './sites.ts';

/** P+R sites serve commuters into the city from its surroundings: sites within this distance of the city point count. */
export const PARK_RIDE_RADIUS_KM = 20;

/**
 * The P+R sites of one city, whatever feed they come from: freshness-guarded, with occupancy
 * share and distance, within the radius, nearest first.
 */
export function parkAndRideNear(sites: readonly ParkingSiteRecord[], city: Pick<City, 'lat' | 'lon'>, now: Date): ParkAndRideRecord[] {
  return sites
    .map((s) => withFreshness(s, now))
    .map((s) => ({
      ...s,
      occupancy_share: occupancyShare(s.free_spaces, s.capacity),
      distance_km: s.lat === null || s.lon === null ? null : Math.round(distanceKm(city.lat, city.lon, s.lat, s.lon) * 10) / 10,
    }))
    .filter((s) => s.distance_km !== null && s.distance_km <= PARK_RIDE_RADIUS_KM)
    .sort((a, b) => (a.distance_km ?? 0) - (b.distance_km ?? 0));
}
