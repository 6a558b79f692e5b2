import type { EventType, RoadEvent } from '../../core/records/roads.ts';
import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { snakeCase } from '../../core/normalise.ts';

/** The VIZ GeoJSON: a GeometryCollection (Point + one or more LineStrings) per feature; ids only in newer answers. */
export interface VizFeature {
  type?: string;
  geometry?: VizGeometry | null;
  properties?: Record<string, unknown> | null;
}
export interface VizGeometry {
  type?: string;
  coordinates?: unknown[];
  geometries?: VizGeometry[];
}
export interface VizCollection {
  type?: string;
  features?: VizFeature[];
}

/**
 * Validity times are Berlin wall-clock text without a zone: the 2026 feed writes ISO "2025-07-23T07:00", older answers
 * (and the sibling `baustellen_sperrungen.json`) German "25.05.2023 10:00". A date alone is its midnight.
 */
export function vizTime(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(t);
  if (iso) return wallClock(iso[1], iso[2], iso[3], iso[4], iso[5]);
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+(\d{1,2}):(\d{2}))?/.exec(t);
  return m ? wallClock(m[3], m[2], m[1], m[4], m[5]) : null;
}

/** Berlin wall-clock parts to a zoned time; a day or time that does not exist (13th month, 25 o'clock) is null. */
function wallClock(y?: string, mo?: string, d?: string, h?: string, mi?: string): string | null {
  const [Y, M, D, H, I] = [Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0)];
  const probe = new Date(Date.UTC(Y, M - 1, D, H, I));
  if (probe.getUTCMonth() !== M - 1 || probe.getUTCDate() !== D || probe.getUTCHours() !== H || probe.getUTCMinutes() !== I) return null;
  return toBerlinIso(berlinLocalToDate(Y, M, D, H, I));
}

/** VIZ subtypes to the shared kinds: roadworks, closures, everything else (disruptions, accidents, events) a warning. */
export function kindOf(subtype: unknown): EventType {
  const s = typeof subtype === 'string' ? subtype.toLowerCase() : '';
  if (s.startsWith('baustelle') || s.startsWith('bauarbeiten')) return 'roadworks';
  if (s.includes('sperrung')) return 'closure';
  return 'warning';
}

/** "Vollsperrung" and "Fahrtrichtungssperrung" close the road (fully or one way); "keine Sperrung" does not. */
function blockedOf(severity: unknown): boolean | null {
  if (typeof severity !== 'string') return null;
  const s = severity.toLowerCase();
  if (s.startsWith('keine')) return false;
  if (s.includes('sperrung')) return true;
  return null;
}

function parts(g: VizGeometry | null | undefined): VizGeometry[] {
  if (!g || typeof g !== 'object') return [];
  if (g.type === 'GeometryCollection') return (g.geometries ?? []).flatMap(parts);
  return [g];
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const pair = (c: unknown): [number, number] | null => (Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number' ? [c[0], c[1]] : null);

export function parseVizFeature(f: VizFeature, index: number): RoadEvent {
  const p = f.properties ?? {};
  const geoms = parts(f.geometry);
  const point = geoms.find((g) => g.type === 'Point');
  const lines = geoms.filter((g) => (g.type === 'LineString' || g.type === 'MultiLineString') && Array.isArray(g.coordinates));
  const line = lines[0];
  const at = pair(point?.coordinates) ?? pair(line?.coordinates?.[0]);
  // A report on both carriageways comes as two LineStrings: kept together as one MultiLineString.
  const shape: VizGeometry | undefined =
    lines.length > 1
      ? { type: 'MultiLineString', coordinates: lines.flatMap((g) => (g.type === 'LineString' ? [g.coordinates] : (g.coordinates ?? []))) }
      : (line ?? point);
  const validity = (p.validity && typeof p.validity === 'object' ? p.validity : {}) as Record<string, unknown>;
  const street = text(p.street);
  const section = text(p.section);
  const start = vizTime(validity.from);
  return {
    // Older answers had no ids: position in the file plus start time keeps one answer's items apart.
    id: text(p.id) ?? `viz:${index}${start ? `:${start}` : ''}`,
    type: kindOf(p.subtype),
    source: 'berlin-viz',
    title: [street, section].filter(Boolean).join(', ') || text(p.subtype),
    road: street,
    direction: text(p.direction),
    description: [text(p.content)].filter((l): l is string => l !== null),
    start,
    end: vizTime(validity.to),
    // Only announced reports carry `is_future` (true); its absence says nothing.
    future: typeof p.is_future === 'boolean' ? p.is_future : null,
    blocked: blockedOf(p.severity),
    delay_minutes: null,
    average_speed_kmh: null,
    abnormal_traffic: null,
    max_speed_kmh: null,
    max_width_m: null,
    length_km: null,
    lat: at ? at[1] : null,
    lon: at ? at[0] : null,
    distance_km: null,
    geometry: shape && typeof shape.type === 'string' && Array.isArray(shape.coordinates) ? { type: shape.type, coordinates: shape.coordinates } : null,
    // The feed's own members in snake_case (the recording has objectState): only the motorway feed keeps camelCase (spec).
    raw: Object.fromEntries(Object.entries(p).map(([k, v]) => [snakeCase(k), v])),
  };
}

const Geometry = z.looseObject({ type: z.string(), coordinates: z.array(z.unknown()).nullish() });
/** The members the reports are placed by: a feature's geometry, or the parts of its GeometryCollection. */
const VizShape = z.looseObject({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.looseObject({
      geometry: Geometry.extend({ geometries: z.array(Geometry).nullish() }).nullish(),
      properties: z.record(z.string(), z.unknown()).nullish(),
    }),
  ),
});

export function parseViz(body: VizCollection): RoadEvent[] {
  shaped(VizShape, body, 'VIZ Berlin');
  // VizShape holds `features` as an array of objects.
  return body.features!.map(parseVizFeature);
}
