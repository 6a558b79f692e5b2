import { toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import type { WeatherRecord } from '../../core/records/weather.ts';

const optNumber = z.number().nullish();
const optText = z.string().nullish();

/**
 * Bright Sky `/current_weather` (units=dwd): °C, hPa, km/h, mm, %, minutes; distance in metres. Every measured value
 * may be null or missing (a station without that sensor); the time and the stations are what the record needs.
 */
const CurrentShape = z.looseObject({
  weather: z.looseObject({
    source_id: optNumber,
    timestamp: z.string().refine((t) => Number.isFinite(Date.parse(t)), 'not a time'),
    fallback_source_ids: z.record(z.string(), z.number()).nullish(),
    ...Object.fromEntries(
      [
        'temperature',
        'relative_humidity',
        'dew_point',
        'pressure_msl',
        'precipitation_10',
        'precipitation_60',
        'cloud_cover',
        'visibility',
        'sunshine_60',
        ...['wind_speed', 'wind_direction', 'wind_gust_speed', 'wind_gust_direction', 'solar'].flatMap((b) => [`${b}_10`, `${b}_30`, `${b}_60`]),
      ].map((k) => [k, optNumber]),
    ),
    condition: optText,
    icon: optText,
  }),
  sources: z.array(
    z.looseObject({
      id: z.number(),
      dwd_station_id: optText,
      wmo_station_id: optText,
      station_name: optText,
      lat: z.number(),
      lon: z.number(),
      height: optNumber,
      distance: z.number(),
    }),
  ),
});
export type BrightSkyCurrent = z.input<typeof CurrentShape>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** Bright Sky offers 10/30/60-minute aggregates; the shortest window present is the current value. */
const firstOf = (w: Record<string, unknown>, base: string): number | null => num(w[`${base}_10`]) ?? num(w[`${base}_30`]) ?? num(w[`${base}_60`]);

export function parseCurrentWeather(answer: unknown): WeatherRecord {
  const body = shaped(CurrentShape, answer, 'Bright Sky current_weather');
  const w = body.weather as Record<string, unknown> & typeof body.weather;
  const station = body.sources.find((s) => s.id === w.source_id) ?? body.sources[0];
  const fallbacks = w.fallback_source_ids ?? {};
  const fallbackStations = Object.fromEntries(
    Object.entries(fallbacks).map(([field, id]) => {
      const s = body.sources.find((x) => x.id === id);
      return [field, s ? { dwd_station_id: s.dwd_station_id ?? null, name: s.station_name ?? null, distance_km: round(s.distance / 1000, 1) } : null];
    }),
  );
  return {
    observed_at: toBerlinIso(w.timestamp),
    temperature_c: num(w.temperature),
    relative_humidity_pct: num(w.relative_humidity),
    dew_point_c: num(w.dew_point),
    pressure_msl_hpa: num(w.pressure_msl),
    wind_speed_kmh: firstOf(w, 'wind_speed'),
    wind_direction_deg: firstOf(w, 'wind_direction'),
    wind_gust_speed_kmh: firstOf(w, 'wind_gust_speed'),
    wind_gust_direction_deg: firstOf(w, 'wind_gust_direction'),
    precipitation_mm_10min: num(w.precipitation_10),
    precipitation_mm_60min: num(w.precipitation_60),
    cloud_cover_pct: num(w.cloud_cover),
    visibility_m: num(w.visibility),
    sunshine_min_60: num(w.sunshine_60),
    solar_kwh_m2_10min: num(w.solar_10),
    solar_kwh_m2_30min: num(w.solar_30),
    solar_kwh_m2_60min: num(w.solar_60),
    condition: typeof w.condition === 'string' ? w.condition : null,
    icon: typeof w.icon === 'string' ? w.icon : null,
    station: station
      ? {
          dwd_station_id: station.dwd_station_id ?? null,
          wmo_station_id: station.wmo_station_id ?? null,
          name: station.station_name ?? null,
          lat: station.lat,
          lon: station.lon,
          height_m: station.height ?? null,
          distance_km: round(station.distance / 1000, 1),
        }
      : null,
    fallback_stations: Object.keys(fallbackStations).length ? fallbackStations : null,
  };
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
