import { valueAt, type Table } from '../../core/table.ts';

/**
 * RFC 7946 GeoJSON: a FeatureCollection, WGS 84, positions `[lon, lat]`. Each row is a Feature:
 * its geometry is the one the source gave (a road's LineString) when it is valid, else a Point
 * from its lat/lon, else null (a row without a position is still a feature, so counts match);
 * its properties are the row's CSV columns with their JSON values. The envelope's meta and
 * attribution travel as foreign members.
 */
export const GEOJSON_TYPE = 'application/geo+json';

const ROWS_PER_CHUNK = 256;

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon']);

/** Nested arrays ending in numbers, at the depth the geometry type needs. */
function positions(c: unknown, depth: number): boolean {
  if (!Array.isArray(c)) return false;
  if (depth === 0) return c.length >= 2 && c.every((x) => typeof x === 'number' && Number.isFinite(x));
  return c.every((x) => positions(x, depth - 1));
}

const DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

function validGeometry(g: unknown): g is { type: string; coordinates: unknown } {
  if (g === null || typeof g !== 'object') return false;
  const { type, coordinates } = g as { type?: unknown; coordinates?: unknown };
  return typeof type === 'string' && GEOMETRY_TYPES.has(type) && positions(coordinates, DEPTH[type]!);
}

function geometryOf(table: Table, row: unknown): unknown {
  if (table.geometry) {
    const g = valueAt(row, [table.geometry]);
    if (validGeometry(g)) return { type: g.type, coordinates: g.coordinates };
  }
  if (!table.position) return null;
  const lat = valueAt(row, [...table.position, 'lat']);
  const lon = valueAt(row, [...table.position, 'lon']);
  return typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) ? { type: 'Point', coordinates: [lon, lat] } : null;
}

function feature(table: Table, row: unknown): string {
  const properties: Record<string, unknown> = {};
  for (const c of table.columns) {
    if (c.name === table.geometry) continue;
    const v = valueAt(row, c.path);
    properties[c.name] = v === undefined ? null : v;
  }
  return JSON.stringify({ type: 'Feature', geometry: geometryOf(table, row), properties });
}

/** The collection in chunks: foreign members first, then the features. */
export function* geojsonChunks(table: Table, rows: Iterable<unknown>, members: Record<string, unknown>): Generator<string> {
  let head = '{"type":"FeatureCollection"';
  for (const [k, v] of Object.entries(members)) head += `,${JSON.stringify(k)}:${JSON.stringify(v ?? null)}`;
  yield head + ',"features":[';
  let chunk = '';
  let n = 0;
  for (const row of rows) {
    chunk += (n ? ',' : '') + feature(table, row);
    if (++n % ROWS_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk + ']}';
}
