import { distanceKm, type City } from '../../cities/register.ts';
import type { ChargingStation } from './register-csv.ts';
import { foldLetters } from '../../core/fold.ts';

/** "Frankfurt am Main" -> "frankfurt", "Halle (Saale)" -> "halle", "Bergisch Gladbach" stays whole. */
export function coreName(name: string): string {
  return foldLetters(name)
    .replace(/\s*\(.*$/, '')
    .replace(/\s+(am|im|an der|in der)\s.*$/, '')
    .trim();
}

export function matchRadiusKm(city: City): number {
  const area = city.area_km2 ?? 100;
  return 1.6 * Math.sqrt(area / Math.PI) + 3;
}

/**
 * The register has no municipality key, so a station belongs to a city when three things
 * agree: its `Bundesland` is the city's state, its `Ort` starts with the city's core name
 * ("Frankfurt" for Frankfurt am Main, also "Köln-Ehrenfeld" for Köln) and its coordinates lie
 * within a radius derived from the city's area. The state check keeps Frankfurt (Oder) and
 * Halle (Westf.) out; the radius keeps same-named places elsewhere in the state out.
 */
export class CityMatcher {
  private readonly byState = new Map<string, { city: City; core: string }[]>();
  constructor(cities: readonly City[]) {
    for (const city of cities) {
      const key = foldLetters(city.state_name);
      this.byState.set(key, [...(this.byState.get(key) ?? []), { city, core: coreName(city.name) }]);
    }
  }

  cityOf(s: ChargingStation): City | null {
    if (!s.place || !s.state || s.lat === null || s.lon === null) return null;
    const place = foldLetters(s.place).trim();
    for (const { city, core } of this.byState.get(foldLetters(s.state).trim()) ?? []) {
      if (!place.startsWith(core) || /[a-z]/.test(place.charAt(core.length))) continue;
      if (distanceKm(city.lat, city.lon, s.lat, s.lon) <= matchRadiusKm(city)) return city;
    }
    return null;
  }
}

/** The stored per-city record: aggregates plus the station list (which pages). */
export function cityRecord(stations: ChargingStation[], edition: string | null) {
  const sorted = [...stations].sort(
    (a, b) => (a.post_code ?? '').localeCompare(b.post_code ?? '') || (a.street ?? '').localeCompare(b.street ?? '') || a.id.localeCompare(b.id),
  );
  const totalPower = stations.reduce((s, x) => s + (x.power_kw ?? 0), 0);
  return {
    edition_date: edition,
    aggregates: {
      stations: stations.length,
      charging_points: stations.reduce((s, x) => s + (x.charging_points ?? 0), 0),
      total_power_kw: Math.round(totalPower * 10) / 10,
      fast_stations: stations.filter((x) => x.charging_type === 'fast').length,
      normal_stations: stations.filter((x) => x.charging_type === 'normal').length,
    },
    points: sorted,
  };
}
