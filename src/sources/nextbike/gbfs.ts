import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** GBFS v2 envelope: `{last_updated (epoch s), ttl, version, data}`. */
export interface Gbfs<T> {
  last_updated?: number;
  data?: T;
}
export type Discovery = Gbfs<Record<string, { feeds?: { name?: string; url?: string }[] }>>;
export interface SystemInformation {
  system_id?: string;
  name?: string;
  operator?: string;
  license_id?: string;
  license_url?: string;
}
export interface StationInformation {
  stations?: { station_id?: string; name?: string; lat?: number; lon?: number; capacity?: number }[];
}
export interface StationStatus {
  stations?: {
    station_id?: string;
    num_bikes_available?: number;
    num_docks_available?: number;
    is_renting?: boolean | number;
    is_installed?: boolean | number;
    last_reported?: number;
  }[];
}
export interface FreeBikeStatus {
  bikes?: { bike_id?: string; lat?: number; lon?: number; is_reserved?: boolean | number; is_disabled?: boolean | number; vehicle_type_id?: string }[];
}

export function gbfsData<T>(body: unknown, what: string): Gbfs<T> & { data: T } {
  const b = body as Gbfs<T>;
  if (!b || typeof b !== 'object' || !b.data || typeof b.data !== 'object') throw new UpstreamError('parse', `GBFS ${what} without data`);
  return b as Gbfs<T> & { data: T };
}

/** Feed URLs of the discovery file, German first, else English, else the first language. */
export function feedUrls(discovery: unknown): Map<string, string> {
  const d = gbfsData<Record<string, { feeds?: { name?: string; url?: string }[] }>>(discovery, 'gbfs.json').data;
  const lang = d.de ?? d.en ?? Object.values(d)[0];
  const out = new Map<string, string>();
  for (const f of lang?.feeds ?? []) if (f.name && f.url) out.set(f.name, f.url);
  if (out.size === 0) throw new UpstreamError('parse', 'GBFS discovery lists no feeds');
  return out;
}

/** Licences a system may carry to be shown: open ones only. */
const OPEN = /(^|\/)(cc0|cc-by|cc-by-sa|odbl|dl-de[-/]zero|dl-de[-/]by|publicdomain\/zero|licenses\/by(-sa)?\/)/i;
export function openLicense(info: SystemInformation): string | null {
  const l = info.license_id ?? info.license_url ?? '';
  return l && OPEN.test(l.replace(/\s/g, '-').toLowerCase()) ? l : null;
}

export const flag = (v: boolean | number | undefined): boolean | null => (v === undefined ? null : v === true || v === 1);
export const epoch = (s: number | undefined): string | null => (typeof s === 'number' && s > 0 ? toBerlinIso(s * 1000) : null);

/** A station of the system joined with its status; `distance_km` is added by the caller, which knows the city. */
export interface JoinedStation {
  system_id: string;
  station_id: string;
  name: string | null;
  lat: number;
  lon: number;
  capacity: number | null;
  vehicles_available: number | null;
  docks_available: number | null;
  is_renting: boolean | null;
  last_reported: string | null;
}

/** Blanks at the ends and runs of blanks inside, as nextbike names carry them (`Hütteldorf  S U`, `Absbergbrücke `). */
const stationName = (v: unknown): string | null => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() || null : null);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * station_information joined with station_status by `station_id`. `capacity` is optional in GBFS 2.3 and
 * missing on many nextbike stations (virtual stations): null then, never 0. A station without an id or a
 * numeric position cannot be placed and is left out.
 */
export function joinStations(info: StationInformation | undefined, status: StationStatus | undefined, systemId: string): JoinedStation[] {
  const statusById = new Map((status?.stations ?? []).filter((s) => s.station_id).map((s) => [s.station_id!, s]));
  return (info?.stations ?? [])
    .filter((s): s is typeof s & { station_id: string; lat: number; lon: number } => !!s.station_id && typeof s.lat === 'number' && typeof s.lon === 'number')
    .map((s) => {
      const st = statusById.get(s.station_id);
      return {
        system_id: systemId,
        station_id: s.station_id,
        name: stationName(s.name),
        lat: s.lat,
        lon: s.lon,
        capacity: count(s.capacity),
        vehicles_available: count(st?.num_bikes_available),
        docks_available: count(st?.num_docks_available),
        is_renting: st ? flag(st.is_renting) : null,
        last_reported: epoch(st?.last_reported),
      };
    });
}
