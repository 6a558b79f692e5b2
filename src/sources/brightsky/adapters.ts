import type { Adapter } from '../../core/data-type.ts';
import type { WeatherRecord, WeatherWarningsRecord } from '../../core/records/weather.ts';
import { parseCurrentWeather } from './current-weather.ts';
import { municipalityWarnCell, parseAlerts } from './alerts.ts';

type NotFound = { detail?: string };

/**
 * Bright Sky's 404 `{"detail": ...}` (no station, unknown cell): the one answer without the expected member that is
 * not drift. A 200 answer that lost the member carries no `detail` and goes to the parser, which names the path.
 */
const notFound = (body: unknown, member: string): body is NotFound =>
  !!body && typeof body === 'object' && !(member in body) && typeof (body as NotFound).detail === 'string';

/** Bright Sky `/current_weather` at the register point (units=dwd). */
export const currentWeather: Adapter<WeatherRecord> = async ({ city, http }) => {
  const body = await http.json<unknown>('/current_weather', {
    query: { lat: city.lat, lon: city.lon, max_dist: 50000, units: 'dwd' },
    okStatuses: [404],
  });
  // 404 {"detail": ...} means no station within max_dist: the source works, it has nothing here.
  if (notFound(body, 'weather')) return { data: null, status: 'no_data', meta: { reason: body.detail ?? 'no DWD station within 50 km' } };
  const data = parseCurrentWeather(body);
  return { data, as_of: data.observed_at };
};

/** Bright Sky `/alerts` for the DWD municipality cell, or by coordinates when Bright Sky does not know the cell. */
export const weatherWarnings: Adapter<WeatherWarningsRecord> = async ({ city, http }) => {
  let body = await http.json<unknown>('/alerts', { query: { warn_cell_id: municipalityWarnCell(city.ags) }, okStatuses: [404] });
  // 404 {"detail": "Unknown warn_cell_id ..."}: the cell id is not a DWD municipality cell; locate by coordinates.
  if (notFound(body, 'alerts')) body = await http.json<unknown>('/alerts', { query: { lat: city.lat, lon: city.lon }, okStatuses: [404] });
  if (notFound(body, 'alerts')) return { data: null, status: 'no_data', meta: { reason: body.detail ?? 'no DWD warn cell for this city' } };
  const parsed = parseAlerts(body);
  if (parsed.warnings.length === 0) {
    return { data: null, status: 'no_data', meta: { reason: 'no active DWD warning', warn_cell: parsed.warn_cell } };
  }
  return { data: parsed, meta: { warn_cell: parsed.warn_cell } };
};
