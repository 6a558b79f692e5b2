import { CITIES, distanceKm, type City } from '../../cities/register.ts';

/**
 * Which register city a stop belongs to. DELFI-style ids (`de:<AGS5>:...`) carry the district
 * key, which for a district-free city is the city itself; every other stop (gtfs.de uses plain
 * numeric ids) is matched geometrically: within the radius of a circle of the city's area
 * around its register point (8 km when the area is unknown), nearest centre wins.
 */
const DEFAULT_RADIUS_KM = 8;

interface Disk {
  city: City;
  radiusKm: number;
  dLat: number;
  dLon: number;
}

const disks: Disk[] = CITIES.map((city) => {
  const radiusKm = city.area_km2 ? Math.sqrt(city.area_km2 / Math.PI) : DEFAULT_RADIUS_KM;
  return { city, radiusKm, dLat: radiusKm / 111, dLon: radiusKm / (111 * Math.cos((city.lat * Math.PI) / 180)) };
});

const byDistrictKey = new Map<string, City>();
for (const c of CITIES) if (c.district_free) byDistrictKey.set(c.ags.slice(0, 5), c);

export function radiusKmOf(city: City): number {
  return disks.find((d) => d.city === city)!.radiusKm;
}

export function cityOfStop(stopId: string, lat: number | null, lon: number | null): string | null {
  const m = /^de:(\d{5}):/.exec(stopId);
  if (m?.[1] !== undefined) {
    const c = byDistrictKey.get(m[1]);
    if (c) return c.slug;
  }
  if (lat === null || lon === null || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  let best: string | null = null;
  let bestRatio = Infinity;
  for (const d of disks) {
    if (Math.abs(lat - d.city.lat) > d.dLat || Math.abs(lon - d.city.lon) > d.dLon) continue;
    const ratio = distanceKm(lat, lon, d.city.lat, d.city.lon) / d.radiusKm;
    if (ratio <= 1 && ratio < bestRatio) {
      bestRatio = ratio;
      best = d.city.slug;
    }
  }
  return best;
}
