import { toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

/**
 * `GET /api/public/v1/locations`: `{items: [OCPI 2.2 Location], total_count}`. CPO backends that OCPDB imports
 * page with an opaque `next` cursor and no `total_count` (chargecloud's AFIR feed, recorded 2026-04): then
 * `total_count` is null and the end of the list is the first page shorter than asked.
 */
const optText = z.string().nullish();
/** Coordinates come as decimal strings (OCPI) or numbers (some CPO backends). */
const coordinate = z.union([z.string(), z.number()]).nullish();

/**
 * The members read here, checked where the page is parsed: a location needs its `id` and each EVSE its `uid`
 * (the point's id when `evse_id` is missing); everything else may be missing or null and becomes null.
 */
const ConnectorShape = z.looseObject({ standard: optText, power_type: optText, max_electric_power: z.number().nullish() });
const EvseShape = z.looseObject({
  uid: z.union([z.string(), z.number()]).transform(String),
  evse_id: optText,
  status: optText,
  last_updated: optText,
  connectors: z.array(ConnectorShape).nullish(),
});
const LocationShape = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  name: optText,
  address: optText,
  postal_code: optText,
  city: optText,
  coordinates: z.looseObject({ latitude: coordinate, longitude: coordinate }).nullish(),
  operator: z.looseObject({ name: optText }).nullish(),
  evses: z.array(EvseShape).nullish(),
});
const PageShape = z.looseObject({ items: z.array(LocationShape), total_count: z.number().nullish() });

export type OcpiLocation = z.output<typeof LocationShape>;

export interface OcpdbPage {
  items: OcpiLocation[];
  total_count: number | null;
}

export type Occupancy = 'available' | 'occupied' | 'out_of_order' | 'unknown';

/** OCPI EvseStatus -> the four buckets of the aggregates; PLANNED/REMOVED are not points yet/any more. */
export function occupancyOf(status: string | null | undefined): Occupancy | null {
  switch ((status ?? '').toUpperCase()) {
    case 'AVAILABLE':
      return 'available';
    case 'CHARGING':
    case 'BLOCKED':
    case 'RESERVED':
      return 'occupied';
    case 'INOPERATIVE':
    case 'OUTOFORDER':
      return 'out_of_order';
    case 'PLANNED':
    case 'REMOVED':
      return null;
    default:
      return 'unknown';
  }
}

/** OCPI timestamps are UTC; some publishers drop the `Z`. */
function zoned(ts: string | null | undefined): string | null {
  if (!ts) return null;
  const t = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(ts) ? ts : `${ts}Z`);
  return Number.isNaN(t) ? null : toBerlinIso(t);
}

export function assertPage(body: unknown): OcpdbPage {
  const page = shaped(PageShape, body, 'OCPDB locations');
  return { items: page.items, total_count: page.total_count ?? null };
}

export interface ChargingPoint {
  evse_id: string;
  location_id: string;
  name: string | null;
  operator: string | null;
  street: string | null;
  post_code: string | null;
  place: string | null;
  lat: number;
  lon: number;
  status: Occupancy;
  upstream_status: string | null;
  power_kw: number | null;
  connector_standards: string[];
  last_updated_at: string | null;
}

/** One point per EVSE of the locations `inside` accepts, plus the per-city aggregates. */
export function chargingStatus(locations: OcpiLocation[], inside: (lat: number, lon: number, place: string | null) => boolean) {
  const points: ChargingPoint[] = [];
  for (const loc of locations) {
    const lat = Number(loc.coordinates?.latitude),
      lon = Number(loc.coordinates?.longitude);
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || !inside(lat, lon, loc.city ?? null)) continue;
    for (const evse of loc.evses ?? []) {
      const occupancy = occupancyOf(evse.status);
      if (!occupancy) continue;
      const watts = Math.max(0, ...(evse.connectors ?? []).map((k) => k.max_electric_power ?? 0));
      points.push({
        evse_id: evse.evse_id ?? evse.uid,
        location_id: loc.id,
        name: loc.name ?? null,
        operator: loc.operator?.name ?? null,
        street: loc.address ?? null,
        post_code: loc.postal_code ?? null,
        place: loc.city ?? null,
        lat,
        lon,
        status: occupancy,
        upstream_status: evse.status ?? null,
        power_kw: watts > 0 ? watts / 1000 : null,
        connector_standards: [...new Set((evse.connectors ?? []).map((k) => k.standard).filter((x): x is string => !!x))],
        last_updated_at: zoned(evse.last_updated),
      });
    }
  }
  const count = (s: Occupancy) => points.filter((p) => p.status === s).length;
  const latest =
    points
      .map((p) => p.last_updated_at)
      .filter((x): x is string => !!x)
      .sort((a, b) => Date.parse(b) - Date.parse(a))[0] ?? null;
  return {
    aggregates: {
      total: points.length,
      available: count('available'),
      occupied: count('occupied'),
      out_of_order: count('out_of_order'),
      unknown: count('unknown'),
      last_update: latest,
    },
    points,
  };
}
