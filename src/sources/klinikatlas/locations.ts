import { distanceKm, type City } from '../../cities/register.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { HospitalRecord } from '../../core/records/hospitals.ts';
import { coreName, matchRadiusKm } from '../bnetza/city-match.ts';
import { foldLetters } from '../../core/fold.ts';
import { parseNumber } from '../../core/numbers.ts';

/**
 * One item of `GET /fileadmin/json/locations.json`: the published OpenAPI types zip as an integer, a recorded answer
 * carries it as a string with its leading zero ("06484"); coordinates are strings in both.
 */
export interface KlinikLocation {
  name?: string;
  street?: string;
  city?: string;
  zip?: number | string;
  phone?: string;
  mail?: string;
  beds_number?: number;
  latitude?: string | number;
  longitude?: string | number;
  link?: string;
}

export type Hospital = Omit<HospitalRecord, 'distance_km'>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const coord = (v: unknown): number | null => parseNumber(v, { notation: 'decimal' });

/** The whole list, compact. A zip read as a string is kept; an integer zip lost its leading zero (01067 → 1067): padded back. */
export function parseLocations(body: unknown): Hospital[] {
  if (!Array.isArray(body)) throw new UpstreamError('parse', 'Klinik-Atlas locations.json is not a JSON array');
  return (body as KlinikLocation[]).map((l) => {
    const zip = typeof l.zip === 'number' ? String(l.zip) : (str(l.zip) ?? '');
    const la = coord(l.latitude);
    const lo = coord(l.longitude);
    return {
      name: str(l.name),
      street: str(l.street),
      post_code: /^\d{4,5}$/.test(zip) ? zip.padStart(5, '0') : null,
      place: str(l.city),
      phone: str(l.phone),
      email: str(l.mail),
      beds: typeof l.beds_number === 'number' && Number.isInteger(l.beds_number) ? l.beds_number : null,
      lat: la !== null && Math.abs(la) <= 90 ? la : null,
      lon: lo !== null && Math.abs(lo) <= 180 ? lo : null,
      url: str(l.link),
    };
  });
}

/**
 * Sites of the city: within the city's radius of its point and with a place naming the city (the
 * atlas has no municipality key), nearest first.
 */
export function hospitalsOf(all: Hospital[], city: City): HospitalRecord[] {
  const radius = matchRadiusKm(city);
  const core = coreName(city.name);
  const out: HospitalRecord[] = [];
  for (const h of all) {
    if (h.lat === null || h.lon === null || !h.place || !foldLetters(h.place).includes(core)) continue;
    const d = distanceKm(city.lat, city.lon, h.lat, h.lon);
    if (d <= radius) out.push({ ...h, distance_km: Math.round(d * 100) / 100 });
  }
  return out.sort((a, b) => (a.distance_km ?? 0) - (b.distance_km ?? 0));
}
