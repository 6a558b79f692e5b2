import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { splitStreet } from '../../core/address.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { toBerlinIso } from '../../core/time.ts';

const text = z.string().nullish();
const num = z.number().nullish();

/**
 * One feature of the layer: properties as it sends them ("ja"/"nein" flags, epoch-ms time in the misspelt
 * `reatime_data_updated`). A site needs an id and a position (its own lat/lon, else the point geometry).
 */
const FeatureShape = z
  .looseObject({
    geometry: z.looseObject({ coordinates: z.array(z.number()).min(2).nullish() }).nullish(),
    properties: z.looseObject({
      objectid: num,
      name: text,
      original_uid: text,
      address: text,
      has_realtime_data: text,
      realtime_opening_status: text,
      lat: num,
      lon: num,
      capacity: num,
      realtime_free_capacity: num,
      reatime_data_updated: num,
      realtime_data_updated_at: z.union([z.number(), z.string()]).nullish(),
    }),
  })
  .superRefine((f, ctx) => {
    const p = f.properties;
    if (p.objectid == null && !p.original_uid) ctx.addIssue({ code: 'custom', path: ['properties', 'objectid'], message: 'no objectid or original_uid' });
    if ((p.lat == null || p.lon == null) && !f.geometry?.coordinates)
      ctx.addIssue({ code: 'custom', path: ['geometry'], message: 'no position in lat/lon or geometry' });
  });
const LayerShape = z.looseObject({ type: z.literal('FeatureCollection'), features: z.array(FeatureShape) });
type VrnProps = z.output<typeof FeatureShape>['properties'];

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
  return shaped(LayerShape, body, 'VRN park and ride layer').features.map((f) => {
    const p = f.properties;
    const [gx, gy] = f.geometry?.coordinates ?? [];
    // FeatureShape holds a position in one of the two.
    const lat = p.lat ?? gy!;
    const lon = p.lon ?? gx!;
    const capacity = typeof p.capacity === 'number' && p.capacity > 0 ? p.capacity : null;
    const live = p.has_realtime_data === 'ja';
    const free = live && typeof p.realtime_free_capacity === 'number' ? p.realtime_free_capacity : null;
    const updated = free === null ? null : updatedAt(p);
    return {
      id: `${VRN_SOURCE}:${p.objectid ?? p.original_uid ?? ''}`,
      name: p.name?.trim() || null,
      ...parseVrnAddress(p.address),
      lat: Math.round(lat * 1e6) / 1e6,
      lon: Math.round(lon * 1e6) / 1e6,
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
