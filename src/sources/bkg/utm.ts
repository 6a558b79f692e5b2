import { utmToLatLon } from '../../core/utm.ts';

/** ETRS89 / UTM zone 32N (EPSG:25832), the VG250 projection, to [lon, lat] (see core/utm.ts). */
export function utm32ToLonLat(easting: number, northing: number): [number, number] {
  const p = utmToLatLon(easting, northing, 32);
  return [p.lon, p.lat];
}

const F = 1 / 298.257222101;
const K0 = 0.9996;
const LON0 = (9 * Math.PI) / 180;
const E2 = F * (2 - F);
const EP2 = E2 / (1 - E2);

/** Point scale factor of the projection at a geographic point (areas measured in UTM are k² too large). */
export function utm32ScaleAt(lon: number, lat: number): number {
  const phi = (lat * Math.PI) / 180;
  const a = ((lon * Math.PI) / 180 - LON0) * Math.cos(phi);
  const c = EP2 * Math.cos(phi) ** 2;
  return K0 * (1 + ((1 + c) * a ** 2) / 2);
}
