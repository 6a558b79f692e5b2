import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { WeatherRecord } from '../../core/records/weather.ts';

/** Bright Sky `/current_weather` (units=dwd): °C, hPa, km/h, mm, %, minutes; distance in metres. */
export interface BrightSkyCurrent {
  weather: Record<string, unknown> & { source_id: number; timestamp: string; fallback_source_ids?: Record<string, number> };
  sources: {
    id: number;
    dwd_station_id: string | null;
    wmo_station_id?: string | null;
    station_name: string | null;
    lat: number;
    lon: number;
    height?: number;
    distance: number;
    observation_type?: string;
  }[];
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** Bright Sky offers 10/30/60-minute aggregates; the shortest window present is the current value. */
const firstOf = (w: Record<string, unknown>, base: string): number | null => num(w[`${base}_10`]) ?? num(w[`${base}_30`]) ?? num(w[`${base}_60`]);

export function parseCurrentWeather(body: BrightSkyCurrent): WeatherRecord {
  const w = body?.weather;
  if (!w || typeof w.timestamp !== 'string') throw new UpstreamError('parse', 'current_weather without weather.timestamp');
  const station = body.sources?.find((s) => s.id === w.source_id) ?? body.sources?.[0];
  const fallbacks = w.fallback_source_ids ?? {};
  const fallbackStations = Object.fromEntries(
    Object.entries(fallbacks).map(([field, id]) => {
      const s = body.sources.find((x) => x.id === id);
      return [field, s ? { dwd_station_id: s.dwd_station_id, name: s.station_name, distance_km: round(s.distance / 1000, 1) } : null];
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
          dwd_station_id: station.dwd_station_id,
          wmo_station_id: station.wmo_station_id ?? null,
          name: station.station_name,
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
