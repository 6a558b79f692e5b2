import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { splitStreet } from '../../core/address.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { toBerlinIso } from '../../core/time.ts';

/** Feature properties as the layer sends them ("ja"/"nein" flags, epoch-ms time in the misspelt `reatime_data_updated`). */
interface VrnProps {
  objectid?: number;
  name?: string | null;
  original_uid?: string | null;
  address?: string | null;
  type?: string | null;
  has_realtime_data?: string | null;
  realtime_opening_status?: string | null;
  lat?: number | null;
  lon?: number | null;
  capacity?: number | null;
  realtime_free_capacity?: number | null;
  reatime_data_updated?: number | null;
  realtime_data_updated_at?: number | string | null;
}

export const VRN_SOURCE = 'vrn-park-ride';
export const VRN_LICENSE = 'not stated by VRN (keyless layer)';

/**
 * "Staatsbahnhofstraße 14, 69168 Wiesloch", "Bahnhofsvorplatz 1,67454,Haßloch" or only the
 * street: street/number first, then a post code with or without its place.
 */
export function parseVrnAddress(a: string | null | undefined): {
  street: string | null;
  house_number: string | null;
  post_code: string | null;
  place: string | null;
} {
  const parts = (a ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out = { ...splitStreet(parts[0]), post_code: null as string | null, place: null as string | null };
  for (let i = 1; i < parts.length; i++) {
    const m = /^(\d{5})(?:\s+(.+))?$/.exec(parts[i] ?? '');
    if (m?.[1]) {
      out.post_code = m[1];
      out.place = m[2] ?? parts[i + 1] ?? null;
      break;
    }
  }
  return out;
}

const OPENING: Record<string, ParkingSiteRecord['state']> = { offen: 'open', geoeffnet: 'open', geöffnet: 'open', geschlossen: 'closed', unbekannt: 'unknown' };

function updatedAt(p: VrnProps): string | null {
  const v = p.realtime_data_updated_at ?? p.reatime_data_updated;
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) ? toBerlinIso(ms) : null;
}

export function parseVrnSites(body: unknown): ParkingSiteRecord[] {
  const fc = body as { type?: string; features?: { properties?: VrnProps; geometry?: { coordinates?: [number, number] } | null }[] };
  if (!fc || fc.type !== 'FeatureCollection' || !Array.isArray(fc.features)) throw new UpstreamError('parse', 'VRN P+R layer answer is no FeatureCollection');
  return fc.features.map((f) => {
    const p = f.properties ?? {};
    const [gx, gy] = f.geometry?.coordinates ?? [NaN, NaN];
    const lat = typeof p.lat === 'number' ? p.lat : Number.isFinite(gy) ? gy : null;
    const lon = typeof p.lon === 'number' ? p.lon : Number.isFinite(gx) ? gx : null;
    const capacity = typeof p.capacity === 'number' && p.capacity > 0 ? p.capacity : null;
    const live = p.has_realtime_data === 'ja';
    const free = live && typeof p.realtime_free_capacity === 'number' ? p.realtime_free_capacity : null;
    const updated = free === null ? null : updatedAt(p);
    return {
      id: `${VRN_SOURCE}:${p.objectid ?? p.original_uid ?? ''}`,
      name: p.name?.trim() || null,
      ...parseVrnAddress(p.address),
      lat: lat === null ? null : Math.round(lat * 1e6) / 1e6,
      lon: lon === null ? null : Math.round(lon * 1e6) / 1e6,
      capacity,
      free_spaces: updated === null ? null : free,
      occupancy_share: null,
      state: OPENING[(p.realtime_opening_status ?? '').toLowerCase()] ?? null,
      live,
      updated_at: updated,
      source: VRN_SOURCE,
      license: VRN_LICENSE,
    };
  });
}
