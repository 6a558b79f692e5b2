/**
 * ETRS89 / UTM (EPSG:258xx) to latitude/longitude on GRS80, which for ETRS89 equals WGS 84 within a
 * metre in Germany. Inverse transverse Mercator after Snyder, "Map Projections: A Working Manual"
 * (USGS 1987), eq. 8-17 to 8-25; sub-metre within the zone. Shared by sources answering in UTM
 * (zone 32, EPSG:25832, is also the projection of the BKG's VG250 boundaries).
 */
const A = 6378137;
const F = 1 / 298.257222101; // GRS80
const E2 = F * (2 - F);
const EP2 = E2 / (1 - E2);
const K0 = 0.9996;

/** The central meridian of a UTM zone, in radians. */
const centralMeridian = (zone: number) => ((zone - 1) * 6 - 180 + 3) * (Math.PI / 180);

export function utmToLatLon(easting: number, northing: number, zone: number): { lat: number; lon: number } {
  const x = easting - 500000;
  const m = northing / K0;
  const mu = m / (A * (1 - E2 / 4 - (3 * E2 ** 2) / 64 - (5 * E2 ** 3) / 256));
  const e1 = (1 - Math.sqrt(1 - E2)) / (1 + Math.sqrt(1 - E2));
  const phi1 =
    mu +
    ((3 * e1) / 2 - (27 * e1 ** 3) / 32) * Math.sin(2 * mu) +
    ((21 * e1 ** 2) / 16 - (55 * e1 ** 4) / 32) * Math.sin(4 * mu) +
    ((151 * e1 ** 3) / 96) * Math.sin(6 * mu) +
    ((1097 * e1 ** 4) / 512) * Math.sin(8 * mu);
  const sin = Math.sin(phi1),
    cos = Math.cos(phi1),
    tan = Math.tan(phi1);
  const c1 = EP2 * cos ** 2;
  const t1 = tan ** 2;
  const n1 = A / Math.sqrt(1 - E2 * sin ** 2);
  const r1 = (A * (1 - E2)) / (1 - E2 * sin ** 2) ** 1.5;
  const d = x / (n1 * K0);
  const lat =
    phi1 -
    ((n1 * tan) / r1) *
      (d ** 2 / 2 -
        ((5 + 3 * t1 + 10 * c1 - 4 * c1 ** 2 - 9 * EP2) * d ** 4) / 24 +
        ((61 + 90 * t1 + 298 * c1 + 45 * t1 ** 2 - 252 * EP2 - 3 * c1 ** 2) * d ** 6) / 720);
  const lon =
    centralMeridian(zone) + (d - ((1 + 2 * t1 + c1) * d ** 3) / 6 + ((5 - 2 * c1 + 28 * t1 - 3 * c1 ** 2 + 8 * EP2 + 24 * t1 ** 2) * d ** 5) / 120) / cos;
  return { lat: (lat * 180) / Math.PI, lon: (lon * 180) / Math.PI };
}

/** ETRS89 / UTM zone 32N (EPSG:25832) to [lon, lat], the order GeoJSON wants. */
export function utm32ToLonLat(easting: number, northing: number): [number, number] {
  const p = utmToLatLon(easting, northing, 32);
  return [p.lon, p.lat];
}

/** Point scale factor of a UTM zone at a geographic point (areas measured in UTM are k² too large). */
export function utmScaleAt(lon: number, lat: number, zone: number): number {
  const phi = (lat * Math.PI) / 180;
  const a = ((lon * Math.PI) / 180 - centralMeridian(zone)) * Math.cos(phi);
  const c = EP2 * Math.cos(phi) ** 2;
  return K0 * (1 + ((1 + c) * a ** 2) / 2);
}

/**
 * A GeoJSON point of a layer served in UTM `zone` (ETRS89), as latitude/longitude rounded to six
 * places; a server that reprojected sends degrees, which are taken as they are. Null for no point.
 */
export function utmPointPosition(g: { type?: string; coordinates?: unknown } | null | undefined, zone: number): { lat: number | null; lon: number | null } {
  const c = g?.type === 'Point' && Array.isArray(g.coordinates) ? g.coordinates : [];
  const [x, y] = [Number(c[0]), Number(c[1])];
  if (!Number.isFinite(x) || !Number.isFinite(y)) return { lat: null, lon: null };
  if (Math.abs(x) <= 180 && Math.abs(y) <= 90) return { lat: y, lon: x };
  const p = utmToLatLon(x, y, zone);
  return { lat: Math.round(p.lat * 1e6) / 1e6, lon: Math.round(p.lon * 1e6) / 1e6 };
}
