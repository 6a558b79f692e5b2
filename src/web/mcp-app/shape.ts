import type { MapFacts } from '../../core/view-facts.ts';
import type { ChartSeries, Feature } from './components.ts';

/**
 * A tool answer's items as the GeoJSON form of the REST API draws them (src/http/formats/
 * geojson.ts): one feature per item, its geometry the source's when valid, else a point from its
 * lat/lon, else none (an item without a position still counts).
 */
export function rowsOf(facts: MapFacts, data: unknown): unknown[] {
  if (data === null || data === undefined) return [];
  const list = facts.listKey === null ? data : (data as Record<string, unknown>)[facts.listKey];
  return Array.isArray(list) ? list : [];
}

function at(row: unknown, path: readonly string[]): unknown {
  let v: unknown = row;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

const DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

function positions(c: unknown, depth: number): boolean {
  if (!Array.isArray(c)) return false;
  if (depth === 0) return c.length >= 2 && c.every((x) => typeof x === 'number' && Number.isFinite(x));
  return c.every((x) => positions(x, depth - 1));
}

function geometryOf(facts: MapFacts, row: unknown): Feature['geometry'] {
  if (facts.geometry) {
    const g = at(row, [facts.geometry]) as { type?: unknown; coordinates?: unknown } | null | undefined;
    if (g && typeof g.type === 'string' && g.type in DEPTH && positions(g.coordinates, DEPTH[g.type]!)) {
      return { type: g.type, coordinates: g.coordinates } as Feature['geometry'];
    }
  }
  if (!facts.position) return null;
  const lat = at(row, [...facts.position, 'lat']);
  const lon = at(row, [...facts.position, 'lon']);
  return typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) ? { type: 'Point', coordinates: [lon, lat] } : null;
}

export function featuresOf(facts: MapFacts, rows: readonly unknown[]): Feature[] {
  return rows.map((row) => ({ type: 'Feature', geometry: geometryOf(facts, row), properties: (row ?? {}) as Record<string, unknown> }));
}

/**
 * The history tool's flat rows as one series per field: `{as_of, field, value}` points, or with
 * `every` `{t, field, mean, …}` buckets drawn at their mean. Units from meta.fields.
 */
export function historySeries(data: unknown, meta: Record<string, unknown>): ChartSeries[] {
  const units = new Map(((meta.fields ?? []) as { name: string; unit?: string | null }[]).map((f) => [f.name, f.unit ?? null]));
  const byField = new Map<string, [number, number | null][]>();
  for (const r of Array.isArray(data) ? (data as Record<string, unknown>[]) : []) {
    const field = typeof r.field === 'string' ? r.field : null;
    const time = typeof r.as_of === 'string' ? r.as_of : typeof r.t === 'string' ? r.t : null;
    if (field === null || time === null) continue;
    const v = typeof r.value === 'number' ? r.value : typeof r.mean === 'number' ? r.mean : null;
    const list = byField.get(field) ?? [];
    list.push([Date.parse(time), v]);
    byField.set(field, list);
  }
  return [...byField].map(([field, points]) => ({ label: field, unit: units.get(field) ?? null, points }));
}
