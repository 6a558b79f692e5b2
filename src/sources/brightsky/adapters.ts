import type { Adapter } from '../../core/data-type.ts';
import type { WeatherRecord, WeatherWarningsRecord } from '../../core/records/weather.ts';
import { parseCurrentWeather, type BrightSkyCurrent } from './current-weather.ts';
import { municipalityWarnCell, parseAlerts, type BrightSkyAlertsBody } from './alerts.ts';

type NotFound = { detail?: string };

/** Bright Sky `/current_weather` at the register point (units=dwd). */
export const currentWeather: Adapter<WeatherRecord> = async ({ city, http }) => {
  const body = await http.json<BrightSkyCurrent | NotFound>('/current_weather', {
    query: { lat: city.lat, lon: city.lon, max_dist: 50000, units: 'dwd' },
    okStatuses: [404],
  });
  // 404 {"detail": ...} means no station within max_dist: the source works, it has nothing here.
  if (!('weather' in body)) return { data: null, status: 'no_data', meta: { reason: body.detail ?? 'no DWD station within 50 km' } };
  const data = parseCurrentWeather(body);
  return { data, as_of: data.observed_at };
};

/** Bright Sky `/alerts` for the DWD municipality cell, or by coordinates when Bright Sky does not know the cell. */
export const weatherWarnings: Adapter<WeatherWarningsRecord> = async ({ city, http }) => {
  let body = await http.json<BrightSkyAlertsBody | NotFound>('/alerts', { query: { warn_cell_id: municipalityWarnCell(city.ags) }, okStatuses: [404] });
  // 404 {"detail": "Unknown warn_cell_id ..."}: the cell id is not a DWD municipality cell; locate by coordinates.
  if (!('alerts' in body)) body = await http.json<BrightSkyAlertsBody | NotFound>('/alerts', { query: { lat: city.lat, lon: city.lon }, okStatuses: [404] });
  if (!('alerts' in body)) return { data: null, status: 'no_data', meta: { reason: body.detail ?? 'no DWD warn cell for this city' } };
  const parsed = parseAlerts(body);
  if (parsed.warnings.length === 0) {
    return { data: null, status: 'no_data', meta: { reason: 'no active DWD warning', warn_cell: parsed.warn_cell } };
  }
  return { data: parsed, meta: { warn_cell: parsed.warn_cell } };
};
