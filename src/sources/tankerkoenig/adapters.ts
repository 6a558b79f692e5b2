import type { Adapter } from '../../core/data-type.ts';
import type { FuelStationRecord } from '../../core/records/mobility.ts';
import { parseStationList, type Fuel } from './list.ts';

/** Tankerkönig allows at most 25 km. */
export const FUEL_MAX_RADIUS_KM = 25;
export const FUEL_MIN_RADIUS_KM = 2;

/** The radius of a circle of the city's area (100 km² where unknown), within 2..25 km. */
export function fuelRadiusKm(areaKm2: number | null): number {
  const r = Math.sqrt((areaKm2 ?? 100) / Math.PI);
  return Math.min(FUEL_MAX_RADIUS_KM, Math.max(FUEL_MIN_RADIUS_KM, Math.round(r * 10) / 10));
}

/**
 * One `list.php` call per city and fuel per cache window. `type=all` returns all three prices
 * (always sorted by distance; sort must not be sent then); a single fuel returns `price`.
 */
export const fuelPrices: Adapter<FuelStationRecord[]> = async ({ city, params, http }) => {
  const fuel = (params.fuel as Fuel | undefined) ?? 'all';
  const rad = fuelRadiusKm(city.area_km2);
  const body = await http.json('/list.php', {
    query: {
      lat: city.lat,
      lng: city.lon,
      rad,
      type: fuel,
      sort: fuel === 'all' ? undefined : 'dist',
      apikey: http.credential('TANKERKOENIG_API_KEY'),
    },
  });
  const stations = parseStationList(body, fuel);
  if (stations.length === 0) return { data: null, status: 'no_data', meta: { reason: `no fuel station within ${rad} km`, radius_km: rad } };
  return { data: stations, meta: { radius_km: rad, fuel } };
};

/** The compare view: the cheapest price per fuel among open stations. */
export function summariseFuelPrices(data: unknown): { stations: number; e5_min_eur: number | null; e10_min_eur: number | null; diesel_min_eur: number | null } {
  const open = (data as FuelStationRecord[]).filter((s) => s.is_open !== false);
  const min = (k: 'e5_eur' | 'e10_eur' | 'diesel_eur') => {
    const v = open.map((s) => s[k]).filter((x): x is number => x !== null);
    return v.length ? Math.min(...v) : null;
  };
  return { stations: open.length, e5_min_eur: min('e5_eur'), e10_min_eur: min('e10_eur'), diesel_min_eur: min('diesel_eur') };
}
