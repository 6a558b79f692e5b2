import type { Adapter } from '../../core/data-type.ts';
import type { WaterLevelRecord } from '../../core/records/water.ts';
import { mapLimit } from '../../core/limit.ts';
import { distanceKm } from '../../cities/register.ts';
import { embeddedW, parseSeries, parseStations, toWaterLevel } from './parse.ts';

/** At most this many gauges per city (Berlin has dozens on its canals). */
export const MAX_GAUGES = 12;
/** Search radius: the radius of a circle of the city's area plus a margin, within these bounds. */
export const MIN_RADIUS_KM = 5;
export const MAX_RADIUS_KM = 25;

export function searchRadiusKm(areaKm2: number | null): number {
  if (!areaKm2) return 10;
  return Math.min(MAX_RADIUS_KM, Math.max(MIN_RADIUS_KM, Math.round(Math.sqrt(areaKm2 / Math.PI) + 2)));
}

/**
 * `water-level`: the gauges within the city's radius with their current water level (series W).
 * The time series are asked for in the same request; a station that comes without them is asked
 * for its W series on its own.
 */
export const gaugeLevels: Adapter<WaterLevelRecord[]> = async ({ city, http }) => {
  const radius = searchRadiusKm(city.area_km2);
  const stations = parseStations(
    await http.json<unknown>('/stations.json', {
      query: {
        latitude: city.lat,
        longitude: city.lon,
        radius,
        timeseries: 'W',
        includeTimeseries: true,
        includeCurrentMeasurement: true,
        includeCharacteristicValues: true,
      },
    }),
  );
  if (stations.length === 0) return { data: null, status: 'no_data', meta: { reason: `no PEGELONLINE gauge within ${radius} km`, radius_km: radius } };
  // Nearest first, and only as many as can be shown (plus room for stations without W).
  const nearest = stations
    .map((s) => ({
      s,
      d: typeof s.latitude === 'number' && typeof s.longitude === 'number' ? distanceKm(city.lat, city.lon, s.latitude, s.longitude) : Infinity,
    }))
    .sort((a, b) => a.d - b.d)
    .slice(0, MAX_GAUGES * 2)
    .map((x) => x.s);
  const withW = await mapLimit(nearest, 4, async (s) => {
    const embedded = embeddedW(s);
    if (embedded !== undefined) return embedded ? toWaterLevel(s, embedded, city.lat, city.lon) : null;
    const res = await http.request(`/stations/{uuid}/W.json`, {
      params: { uuid: s.uuid ?? '' },
      query: { includeCurrentMeasurement: true, includeCharacteristicValues: true },
      okStatuses: [404],
    });
    // 404: the station has no W series (not every gauge measures the level).
    if (res.status === 404) return null;
    return toWaterLevel(s, parseSeries(res.body), city.lat, city.lon);
  });
  const gauges = withW
    .filter((g): g is WaterLevelRecord => g !== null && g.value_cm !== null)
    .sort((a, b) => (a.distance_km ?? Infinity) - (b.distance_km ?? Infinity))
    .slice(0, MAX_GAUGES);
  if (gauges.length === 0) {
    return { data: null, status: 'no_data', meta: { reason: `no gauge within ${radius} km reports a current water level`, radius_km: radius } };
  }
  const newest = gauges.reduce<string | null>((a, g) => (g.measured_at && (!a || Date.parse(g.measured_at) > Date.parse(a)) ? g.measured_at : a), null);
  return { data: gauges, as_of: newest, meta: { radius_km: radius } };
};

/** Compare view: the nearest gauge's level, so cities compare on one number. */
export function nearestGauge(data: unknown) {
  const gauges = data as WaterLevelRecord[];
  const g = gauges[0];
  if (!g) return null;
  return {
    name: g.name,
    water: g.water,
    value_cm: g.value_cm,
    state_mnw_mhw: g.state_mnw_mhw,
    measured_at: g.measured_at,
    distance_km: g.distance_km,
    gauges: gauges.length,
  };
}
