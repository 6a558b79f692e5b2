import type { Adapter } from '../../core/data-type.ts';
import type { SharingRecord } from '../../core/records/mobility.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { distanceKm } from '../../cities/register.ts';
import { NEXTBIKE_SYSTEMS } from './source.ts';
import { epoch, feedUrls, flag, gbfsFeed, joinStations, openLicense, type GbfsFeed } from './gbfs.ts';
import { FormatDriftError } from '../../core/format-drift-error.ts';

/** Station status older than this is no live value (GBFS feeds refresh every minute). */
export const SHARING_MAX_AGE_HOURS = 2;

export const SHARING_CITIES: readonly string[] = Object.keys(NEXTBIKE_SYSTEMS);

/** The city radius: a circle of the city's area (100 km² where unknown) plus 1 km. */
export const sharingRadiusKm = (areaKm2: number | null) => Math.round((Math.sqrt((areaKm2 ?? 100) / Math.PI) + 1) * 10) / 10;

/**
 * A discovered feed URL is only followed when it lies under the configured base (the
 * discovery file names absolute URLs on the operator's host); anything else is refused.
 */
function underBase(url: string, defaultBase: string): string {
  const path = new URL(url).pathname;
  const basePath = new URL(defaultBase).pathname.replace(/\/+$/, '');
  if (!path.startsWith(basePath + '/')) throw new UpstreamError('parse', 'GBFS feed outside the configured base');
  return path.slice(basePath.length);
}

const DEFAULT_BASE = 'https://gbfs.nextbike.net/maps/gbfs/v2';

/** One nextbike system: discovery, system information, stations with status, free-floating bikes, kept within the city radius. */
export const nextbikeSharing: Adapter<SharingRecord> = async (ctx) => {
  const { city, http } = ctx;
  const code = NEXTBIKE_SYSTEMS[city.slug];
  if (!code) return { data: null, status: 'no_data', meta: { reason: 'no sharing system is configured for this city' } };
  const feeds = feedUrls(await http.json(`/nextbike_${code}/gbfs.json`));
  const get = async <K extends GbfsFeed>(name: K) => {
    const url = feeds.get(name);
    return url ? gbfsFeed(await http.json(underBase(url, DEFAULT_BASE)), name) : null;
  };
  // A system has docked stations, free-floating vehicles or both; a discovery listing neither feed cannot be read.
  if (!feeds.has('station_information') && !feeds.has('free_bike_status'))
    throw new FormatDriftError('GBFS gbfs.json $.data.feeds: lacks station_information and free_bike_status', '$.data.feeds');
  const system = await get('system_information');
  if (!system) throw new FormatDriftError('GBFS gbfs.json $.data.feeds: lacks system_information', '$.data.feeds');
  const info = system.data;
  const systemId = info.system_id ?? `nextbike_${code}`;
  const license = openLicense(info);
  if (!license) {
    return { data: null, status: 'no_data', meta: { reason: 'the only sharing system of the city publishes no open licence', excluded_systems: [systemId] } };
  }
  const [stationInfo, status, free] = await Promise.all([get('station_information'), get('station_status'), get('free_bike_status')]);
  const r = sharingRadiusKm(city.area_km2);
  const dist = (lat: number, lon: number) => Math.round(distanceKm(city.lat, city.lon, lat, lon) * 10) / 10;
  const stations = joinStations(stationInfo?.data, status?.data, systemId)
    .map((s) => ({ ...s, distance_km: dist(s.lat, s.lon) }))
    .filter((s) => s.distance_km <= r)
    .sort((a, b) => a.distance_km - b.distance_km);
  const freeFloating = (free?.data.bikes ?? [])
    .filter((b): b is typeof b & { bike_id: string; lat: number; lon: number } => !!b.bike_id && typeof b.lat === 'number' && typeof b.lon === 'number')
    .filter((b) => !flag(b.is_reserved) && !flag(b.is_disabled) && dist(b.lat, b.lon) <= r)
    .map((b) => ({ system_id: systemId, vehicle_id: b.bike_id, vehicle_type_id: b.vehicle_type_id ?? null, lat: b.lat, lon: b.lon }));
  if (stations.length === 0 && freeFloating.length === 0) {
    return { data: null, status: 'no_data', meta: { reason: `no station or rentable vehicle of ${systemId} within ${r} km`, radius_km: r } };
  }
  const atStations = stations.reduce((n, s) => n + (s.is_renting === false ? 0 : (s.vehicles_available ?? 0)), 0);
  const updatedAt = epoch(status?.last_updated ?? free?.last_updated);
  if (updatedAt && (ctx.now.getTime() - Date.parse(updatedAt)) / 3600_000 > SHARING_MAX_AGE_HOURS) {
    return {
      data: null,
      status: 'no_data',
      meta: {
        reason: `the GBFS feed of ${systemId} has not been updated since ${updatedAt} (more than ${SHARING_MAX_AGE_HOURS} h)`,
        feed_updated_at: updatedAt,
      },
    };
  }
  return {
    data: {
      aggregates: { systems: 1, stations: stations.length, vehicles_available: atStations + freeFloating.length },
      systems: [
        {
          system_id: systemId,
          name: info.name?.trim() || null,
          operator: info.operator?.trim() || null,
          license,
          stations: stations.length,
          vehicles_available: atStations,
          free_floating_vehicles: freeFloating.length,
          updated_at: updatedAt,
        },
      ],
      stations,
      free_floating: freeFloating,
    },
    as_of: updatedAt,
    meta: { radius_km: r, excluded_systems: [] },
  };
};

/** The compare view: the totals only. */
export function summariseSharing(data: unknown): SharingRecord['aggregates'] {
  return (data as SharingRecord).aggregates;
}
