/**
 * ETRS89 / UTM zone 32N (EPSG:25832) to geographic coordinates on GRS80, which for ETRS89
 * equals WGS 84 within a metre. Inverse transverse Mercator after Snyder, "Map Projections:
 * A Working Manual" (USGS 1987), eq. 8-17 to 8-25; sub-metre within the zone's extent.
 */
const A = 6378137;
const F = 1 / 298.257222101;
const K0 = 0.9996;
const LON0 = (9 * Math.PI) / 180;
const E2 = F * (2 - F);
const EP2 = E2 / (1 - E2);
const E1 = (1 - Math.sqrt(1 - E2)) / (1 + Math.sqrt(1 - E2));
const MU_DIV = A * (1 - E2 / 4 - (3 * E2 ** 2) / 64 - (5 * E2 ** 3) / 256);

export function utm32ToLonLat(easting: number, northing: number): [number, number] {
  const x = easting - 500000;
  const mu = northing / K0 / MU_DIV;
  const phi1 =
    mu +
    ((3 * E1) / 2 - (27 * E1 ** 3) / 32) * Math.sin(2 * mu) +
    ((21 * E1 ** 2) / 16 - (55 * E1 ** 4) / 32) * Math.sin(4 * mu) +
    ((151 * E1 ** 3) / 96) * Math.sin(6 * mu) +
    ((1097 * E1 ** 4) / 512) * Math.sin(8 * mu);
  const sin = Math.sin(phi1);
  const cos = Math.cos(phi1);
  const tan = Math.tan(phi1);
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
  const lon = LON0 + (d - ((1 + 2 * t1 + c1) * d ** 3) / 6 + ((5 - 2 * c1 + 28 * t1 - 3 * c1 ** 2 + 8 * EP2 + 24 * t1 ** 2) * d ** 5) / 120) / cos;
  return [(lon * 180) / Math.PI, (lat * 180) / Math.PI];
}

/** Point scale factor of the projection at a geographic point (areas measured in UTM are k² too large). */
export function utm32ScaleAt(lon: number, lat: number): number {
  const phi = (lat * Math.PI) / 180;
  const a = ((lon * Math.PI) / 180 - LON0) * Math.cos(phi);
  const c = EP2 * Math.cos(phi) ** 2;
  return K0 * (1 + ((1 + c) * a ** 2) / 2);
}
