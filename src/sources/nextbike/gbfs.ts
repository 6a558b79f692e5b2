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
