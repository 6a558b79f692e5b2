import type { Ring } from './shapefile.ts';
import { utm32ToLonLat, utmScaleAt } from '../../core/utm.ts';

/** One polygon: outer ring first, then its holes (metres, UTM 32N). */
export type Polygon = Ring[];

/** Vertex `i` of `r`; the loops below stay inside the ring, so a miss is a programming error, not bad data. */
function pt(r: Ring, i: number): [number, number] {
  const v = r[i];
  if (v === undefined) throw new RangeError(`vertex ${i} outside a ring of ${r.length}`);
  return v;
}

/** Shoelace area; negative for clockwise rings (shapefile outer rings). */
export function signedArea(r: Ring): number {
  let s = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const [xi, yi] = pt(r, i);
    const [xj, yj] = pt(r, j);
    s += xj * yi - xi * yj;
  }
  return s / 2;
}

function inside(p: [number, number], r: Ring): boolean {
  let c = false;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const [xi, yi] = pt(r, i);
    const [xj, yj] = pt(r, j);
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** Shapefile rings to polygons: clockwise rings are outer rings, the others holes of the outer ring holding them. */
export function toPolygons(rings: readonly Ring[]): Polygon[] {
  const polys: Polygon[] = rings.filter((r) => r.length >= 4 && signedArea(r) < 0).map((r) => [r]);
  for (const hole of rings.filter((r) => r.length >= 4 && signedArea(r) > 0)) {
    const start = pt(hole, 0);
    // Every polygon here was built from one outer ring, so p[0] exists.
    const owner = polys.find((p) => p[0] !== undefined && inside(start, p[0]));
    if (owner) owner.push(hole);
  }
  return polys;
}

/** Area in m² on the plane (outer rings minus holes). */
export function planarArea(polys: readonly Polygon[]): number {
  return polys.reduce((s, p) => s + p.reduce((t, r) => t - signedArea(r), 0), 0);
}

/** Area-weighted centroid of all rings (holes subtract), in UTM metres. */
export function centroid(polys: readonly Polygon[]): [number, number] {
  let ax = 0;
  let ay = 0;
  let area = 0;
  for (const p of polys) {
    for (const r of p) {
      for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
        const [xi, yi] = pt(r, i);
        const [xj, yj] = pt(r, j);
        const cross = xj * yi - xi * yj;
        ax += (xj + xi) * cross;
        ay += (yj + yi) * cross;
        area += cross;
      }
    }
  }
  return [ax / (3 * area), ay / (3 * area)];
}

function segmentDistance(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Douglas-Peucker on a closed ring (iterative); keeps the first and last point. */
export function simplifyRing(r: Ring, tolerance: number): Ring {
  if (r.length <= 4) return r;
  const keep = new Uint8Array(r.length);
  keep[0] = keep[r.length - 1] = 1;
  // A closed ring's end points coincide: split at the point farthest from the start first.
  const [x0, y0] = pt(r, 0);
  let far = 1;
  let farDist = -1;
  for (let i = 1; i < r.length - 1; i++) {
    const [x, y] = pt(r, i);
    const d = Math.hypot(x - x0, y - y0);
    if (d > farDist) {
      far = i;
      farDist = d;
    }
  }
  keep[far] = 1;
  const stack: [number, number][] = [
    [0, far],
    [far, r.length - 1],
  ];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    let max = 0;
    let at = -1;
    for (let i = a + 1; i < b; i++) {
      const d = segmentDistance(pt(r, i), pt(r, a), pt(r, b));
      if (d > max) {
        max = d;
        at = i;
      }
    }
    if (at >= 0 && max > tolerance) {
      keep[at] = 1;
      stack.push([a, at], [at, b]);
    }
  }
  return r.filter((_, i) => keep[i] === 1);
}

/** Simplified polygons; holes and islands that collapse below a triangle are dropped, the largest polygon always stays. */
export function simplify(polys: readonly Polygon[], tolerance: number): Polygon[] {
  const out: Polygon[] = [];
  for (const p of polys) {
    if (p[0] === undefined) continue;
    const outer = simplifyRing(p[0], tolerance);
    if (outer.length < 4) continue;
    out.push([
      outer,
      ...p
        .slice(1)
        .map((h) => simplifyRing(h, tolerance))
        .filter((h) => h.length >= 4),
    ]);
  }
  if (out.length === 0 && polys.length) {
    // Outer rings are clockwise (negative area): the most negative is the largest.
    let largest: Ring | null = null;
    for (const p of polys) if (p[0] !== undefined && (largest === null || signedArea(p[0]) < signedArea(largest))) largest = p[0];
    if (largest) out.push([largest]);
  }
  return out;
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** GeoJSON MultiPolygon coordinates (RFC 7946: lon/lat, outer rings counter-clockwise, holes clockwise). */
export function toLonLat(polys: readonly Polygon[], digits = 6): number[][][][] {
  return polys.map((p) =>
    p.map((r, i) => {
      const ring = r.map(([x, y]) => utm32ToLonLat(x, y).map((v) => round(v, digits)));
      const clockwise = signedArea(r) < 0;
      // Shapefile outer rings are clockwise; GeoJSON wants them counter-clockwise (holes the reverse).
      return (i === 0) === clockwise ? ring.reverse() : ring;
    }),
  );
}

export interface Measures {
  area_km2: number;
  centroid: { lat: number; lon: number };
  bbox: { min_lon: number; min_lat: number; max_lon: number; max_lat: number };
}

export function measure(polys: readonly Polygon[]): Measures {
  const [cx, cy] = centroid(polys);
  const [lon, lat] = utm32ToLonLat(cx, cy);
  const k = utmScaleAt(lon, lat, 32);
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (const p of polys) {
    for (const [x, y] of p[0] ?? []) {
      const [lo, la] = utm32ToLonLat(x, y);
      minLon = Math.min(minLon, lo);
      maxLon = Math.max(maxLon, lo);
      minLat = Math.min(minLat, la);
      maxLat = Math.max(maxLat, la);
    }
  }
  return {
    area_km2: round(planarArea(polys) / k ** 2 / 1e6, 2),
    centroid: { lat: round(lat, 6), lon: round(lon, 6) },
    bbox: { min_lon: round(minLon, 6), min_lat: round(minLat, 6), max_lon: round(maxLon, 6), max_lat: round(maxLat, 6) },
  };
}
