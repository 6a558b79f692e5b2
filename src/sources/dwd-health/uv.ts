import { distanceKm } from '../../cities/register.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { readDwdLocalTime } from './pollen.ts';
import { UV_STATIONS, type UvStation } from './uv-stations.ts';
import { nameCore } from '../../core/fold.ts';

/** A forecast value: an integer, written as a number or a string. */
const uvValue = z.union([z.number(), z.string()]).nullish();

/** uvi.json as DWD publishes it: one entry per UV measurement city. */
const UvFileShape = z.looseObject({
  // The UV file's own time format is not recorded anywhere: an unreadable time leaves the values usable.
  last_update: z.string().nullish(),
  content: z.array(z.looseObject({ city: z.string(), forecast: z.looseObject({ today: uvValue, tomorrow: uvValue, dayafter_to: uvValue }) })),
});
export type UvFile = z.output<typeof UvFileShape>;

/** The national file checked where it is fetched, before it is shared by every city. */
export const checkUvFile = (body: unknown): UvFile => shaped(UvFileShape, body, 'DWD uvi');

export interface UvForecast {
  station: string;
  own_station: boolean;
  distance_km: number | null;
  lat: number | null;
  lon: number | null;
  issued_at: string | null;
  today: number | null;
  tomorrow: number | null;
  day_after_tomorrow: number | null;
  today_risk: 'low' | 'moderate' | 'high' | 'very_high' | 'extreme' | null;
}

const uvIndex = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : null;
};

export function uvRisk(index: number | null): UvForecast['today_risk'] {
  if (index === null) return null;
  if (index <= 2) return 'low';
  if (index <= 5) return 'moderate';
  if (index <= 7) return 'high';
  if (index <= 10) return 'very_high';
  return 'extreme';
}

/**
 * The UV forecast for a city: the entry named like the city, else the nearest lowland UV city
 * whose position is known. Null when the file has neither.
 */
export function parseUv(file: UvFile, cityName: string, lat: number, lon: number): UvForecast | null {
  const entries = file.content;
  const known = new Map<string, UvStation>(UV_STATIONS.map((s) => [nameCore(s.name), s]));
  const own = entries.find((e) => nameCore(e.city) === nameCore(cityName));
  let pick: { entry: (typeof entries)[number]; station: UvStation | undefined; distance: number | null } | null = null;
  if (own) {
    const st = known.get(nameCore(own.city));
    pick = { entry: own, station: st, distance: st ? distanceKm(lat, lon, st.lat, st.lon) : null };
  } else {
    for (const e of entries) {
      const st = known.get(nameCore(e.city));
      if (!st || st.mountain) continue;
      const d = distanceKm(lat, lon, st.lat, st.lon);
      if (!pick || d < (pick.distance ?? Infinity)) pick = { entry: e, station: st, distance: d };
    }
  }
  if (!pick) return null;
  const f = pick.entry.forecast;
  const today = uvIndex(f.today);
  return {
    station: pick.entry.city,
    own_station: pick.entry === own,
    distance_km: pick.distance === null ? null : Math.round(pick.distance * 10) / 10,
    lat: pick.station?.lat ?? null,
    lon: pick.station?.lon ?? null,
    issued_at: readDwdLocalTime(file.last_update),
    today,
    tomorrow: uvIndex(f.tomorrow),
    day_after_tomorrow: uvIndex(f.dayafter_to),
    today_risk: uvRisk(today),
  };
}
