import type { EventType, RoadEvent } from '../../core/records/roads.ts';
import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** The VIZ GeoJSON: features without ids, a GeometryCollection (Point + LineString) each. */
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

/** "25.05.2023 10:00" (Berlin wall-clock time) -> zoned; a date alone is its midnight. */
export function vizTime(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+(\d{1,2}):(\d{2}))?/.exec(v.trim());
  if (!m) return null;
  return toBerlinIso(berlinLocalToDate(Number(m[3]), Number(m[2]), Number(m[1]), Number(m[4] ?? 0), Number(m[5] ?? 0)));
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
  const line = geoms.find((g) => g.type === 'LineString' || g.type === 'MultiLineString');
  const at = pair(point?.coordinates) ?? pair(line?.coordinates?.[0]);
  const shape = line ?? point;
  const validity = (p.validity && typeof p.validity === 'object' ? p.validity : {}) as Record<string, unknown>;
  const street = text(p.street);
  const section = text(p.section);
  const start = vizTime(validity.from);
  return {
    // The feed has no ids: position in the file plus start time keeps one answer's items apart.
    id: text(p.id) ?? `viz:${index}${start ? `:${start}` : ''}`,
    type: kindOf(p.subtype),
    source: 'berlin-viz',
    title: [street, section].filter(Boolean).join(', ') || text(p.subtype),
    road: street,
    direction: text(p.direction),
    description: [text(p.content)].filter((l): l is string => l !== null),
    start,
    end: vizTime(validity.to),
    future: null,
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
    raw: p,
  };
}

export function parseViz(body: VizCollection): RoadEvent[] {
  if (!body || typeof body !== 'object' || body.type !== 'FeatureCollection' || !Array.isArray(body.features)) {
    throw new UpstreamError('parse', 'VIZ Berlin: answer is not a GeoJSON FeatureCollection');
  }
  return body.features.filter((f) => f && typeof f === 'object').map(parseVizFeature);
}
