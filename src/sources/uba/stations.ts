import { distanceKm } from '../../cities/register.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** One measuring station from stations/json, reduced to what the air types need. */
export interface UbaStation {
  id: string;
  code: string;
  name: string;
  /** UBA's "station city": the municipality name, no key. */
  place: string | null;
  lat: number;
  lon: number;
  active_from: string | null;
  active_to: string | null;
  setting: string | null;
  station_type: string | null;
  network: string | null;
  street: string | null;
  house_number: string | null;
  post_code: string | null;
}

export interface StationListBody {
  indices?: unknown;
  data?: Record<string, unknown[]>;
}

/**
 * stations/json rows are positional arrays described by `indices`. Columns are looked up by
 * name because the last one is "station zip" in some answers and "station zip code" in others.
 */
export function parseStations(body: StationListBody): UbaStation[] {
  if (!body || !Array.isArray(body.indices) || !body.data || typeof body.data !== 'object') {
    throw new UpstreamError('parse', 'UBA stations/json without indices or data');
  }
  const names = (body.indices as unknown[]).map((x) => String(x).toLowerCase());
  const col = (...candidates: string[]) => {
    for (const c of candidates) {
      const i = names.indexOf(c);
      if (i >= 0) return i;
    }
    return -1;
  };
  const idx = {
    id: col('station id'),
    code: col('station code'),
    name: col('station name'),
    city: col('station city'),
    from: col('station active from'),
    to: col('station active to'),
    lon: col('station longitude'),
    lat: col('station latitude'),
    setting: col('station setting name'),
    type: col('station type name'),
    network: col('network name'),
    street: col('station street'),
    nr: col('station street nr'),
    zip: col('station zip code', 'station zip'),
  };
  if (idx.id < 0 || idx.lat < 0 || idx.lon < 0) throw new UpstreamError('parse', 'UBA stations/json indices lack id or coordinates');
  const str = (row: unknown[], i: number): string | null => {
    if (i < 0) return null;
    const v = row[i];
    return v === null || v === undefined || v === '' ? null : String(v);
  };
  const out: UbaStation[] = [];
  for (const row of Object.values(body.data)) {
    if (!Array.isArray(row)) continue;
    const lat = Number(row[idx.lat]),
      lon = Number(row[idx.lon]);
    const id = str(row, idx.id);
    if (!id || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    out.push({
      id,
      code: str(row, idx.code) ?? id,
      name: str(row, idx.name) ?? id,
      place: str(row, idx.city),
      lat,
      lon,
      active_from: str(row, idx.from),
      active_to: str(row, idx.to),
      setting: str(row, idx.setting),
      station_type: str(row, idx.type),
      network: str(row, idx.network),
      street: str(row, idx.street),
      house_number: str(row, idx.nr),
      post_code: str(row, idx.zip),
    });
  }
  return out;
}

/** Active on `today` (YYYY-MM-DD): started, and no end date or one not yet passed. */
export function isActive(s: UbaStation, today: string): boolean {
  if (s.active_from && s.active_from.slice(0, 10) > today) return false;
  return s.active_to === null || s.active_to.slice(0, 10) >= today;
}

export interface StationAt extends UbaStation {
  distance_km: number;
}

/** Active stations within `maxKm` of a point, nearest first. */
export function nearestActive(stations: readonly UbaStation[], lat: number, lon: number, today: string, maxKm: number): StationAt[] {
  return stations
    .filter((s) => isActive(s, today))
    .map((s) => ({ ...s, distance_km: Math.round(distanceKm(lat, lon, s.lat, s.lon) * 10) / 10 }))
    .filter((s) => s.distance_km <= maxKm)
    .sort((a, b) => a.distance_km - b.distance_km);
}
