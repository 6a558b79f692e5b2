import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { StationFacilityRecord } from '../../core/records/mobility.ts';
import { distanceKm } from '../../cities/register.ts';
import { parseFacilities, type Facility } from './facilities.ts';

/** The radius of a circle of the city's area (100 km² where unknown) plus 1 km, at least 3 km. */
export function facilityRadiusKm(areaKm2: number | null): number {
  return Math.max(3, Math.round((Math.sqrt((areaKm2 ?? 100) / Math.PI) + 1) * 10) / 10);
}

/** The national list (one call, shared by every city through the cache). */
const nationalList = (ctx: FetchContext) =>
  ctx.cached('facilities', { freshSeconds: 300, staleSeconds: 1800 }, async () =>
    parseFacilities(
      await ctx.http.json('/facilities', {
        query: { type: 'ELEVATOR,ESCALATOR' },
        headers: { 'DB-Client-Id': ctx.http.credential('DB_CLIENT_ID'), 'DB-Api-Key': ctx.http.credential('DB_API_KEY') },
      }),
    ),
  );

/** Elevators and escalators within the city radius, by station and equipment number; items without coordinates cannot be placed and are left out. */
export const stationFacilities: Adapter<StationFacilityRecord[]> = async (ctx) => {
  const { city } = ctx;
  const r = facilityRadiusKm(city.area_km2);
  const all: Facility[] = await nationalList(ctx);
  const data = all
    .filter((f): f is Facility & { lat: number; lon: number } => f.lat !== null && f.lon !== null)
    .map((f) => ({ ...f, distance_km: Math.round(distanceKm(city.lat, city.lon, f.lat, f.lon) * 10) / 10 }))
    .filter((f) => f.distance_km <= r)
    .sort((a, b) => (a.station_number ?? 0) - (b.station_number ?? 0) || a.equipment_number.localeCompare(b.equipment_number));
  if (data.length === 0) return { data: null, status: 'no_data', meta: { reason: `no DB elevator or escalator within ${r} km`, radius_km: r } };
  const out = data.filter((f) => f.state === 'inactive').length;
  return { data, meta: { radius_km: r, inactive: out } };
};
