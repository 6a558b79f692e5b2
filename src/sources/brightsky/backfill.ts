import type { HistoryBackfill } from '../../core/data-type.ts';
import type { WeatherRecord } from '../../core/records/weather.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { toBerlinIso } from '../../core/time.ts';

/** Days of past hourly weather read when a series starts (Bright Sky serves DWD's observations back to 2010). */
export const BACKFILL_DAYS = 30;

/** One hourly record of Bright Sky `/weather` (units=dwd: °C, %, km/h, mm in the hour). */
interface HourlyWeather {
  timestamp?: unknown;
  source_id?: unknown;
  temperature?: unknown;
  relative_humidity?: unknown;
  wind_speed?: unknown;
  precipitation?: unknown;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The ids of `sources` that are forecasts (MOSMIX), not observations; a list missing or malformed names none. */
function forecastSources(sources: unknown): Set<unknown> {
  if (!Array.isArray(sources)) return new Set();
  return new Set(
    sources.flatMap((s: unknown) =>
      s && typeof s === 'object' && (s as { observation_type?: unknown }).observation_type === 'forecast' ? [(s as { id?: unknown }).id] : [],
    ),
  );
}

/**
 * `weather`: Bright Sky's hourly records at the register point for the BACKFILL_DAYS before the
 * served observation (so the backfill ends where the recording starts), mapped to the recorded
 * fields: the hour's precipitation is the 60-minute sum the recording keeps. A 404 (no station
 * within 50 km, as for /current_weather) is nothing to backfill. Records switch `source_id` within
 * one answer (observations, then MOSMIX forecasts from the hour the observations end): a record of a
 * source whose `observation_type` is `forecast` is no past value and is skipped.
 */
export const weatherBackfill: HistoryBackfill = async ({ city, http, now }, data) => {
  const observed = Date.parse((data as WeatherRecord | null)?.observed_at ?? '');
  const end = Number.isFinite(observed) ? observed : now.getTime();
  const body = await http.json<{ weather?: unknown; sources?: unknown } & { detail?: string }>('/weather', {
    query: {
      lat: city.lat,
      lon: city.lon,
      date: new Date(end - BACKFILL_DAYS * 86_400_000).toISOString(),
      last_date: new Date(end).toISOString(),
      max_dist: 50000,
      units: 'dwd',
    },
    okStatuses: [404],
  });
  if (!('weather' in body)) return [];
  if (!Array.isArray(body.weather)) throw new UpstreamError('parse', '/weather without a weather list');
  const forecasts = forecastSources(body.sources);
  return (body.weather as HourlyWeather[]).flatMap((w) => {
    const t = typeof w?.timestamp === 'string' ? Date.parse(w.timestamp) : NaN;
    // Only the past of the served value: the served hour itself is the recording's.
    if (!Number.isFinite(t) || t >= end || forecasts.has(w.source_id)) return [];
    return [
      {
        t: toBerlinIso(t),
        values: {
          temperature_c: num(w.temperature),
          relative_humidity_pct: num(w.relative_humidity),
          wind_speed_kmh: num(w.wind_speed),
          precipitation_mm_60min: num(w.precipitation),
        },
      },
    ];
  });
};
