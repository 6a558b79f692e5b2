import type { MapFacts } from '../wire.ts';
import type { Feature } from '../components/index.ts';

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

/** A feature's fields: the item's, without the upstream's verbatim members or the geometry drawn already. */
function propertiesOf(facts: MapFacts, row: unknown): Record<string, unknown> {
  if (row === null || typeof row !== 'object') return {};
  const { raw: _raw, ...rest } = row as Record<string, unknown>;
  if (facts.geometry) delete rest[facts.geometry];
  return rest;
}

export function featuresOf(facts: MapFacts, rows: readonly unknown[]): Feature[] {
  return rows.map((row) => ({ type: 'Feature', geometry: geometryOf(facts, row), properties: propertiesOf(facts, row) }));
}
