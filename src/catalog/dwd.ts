import type { DataType } from './types.ts';
import { BRIGHTSKY, BRIGHTSKY_ALERTS } from '../sources/brightsky/source.ts';
import { parseCurrentWeather, type BrightSkyCurrent } from '../sources/brightsky/current-weather.ts';
import { municipalityWarnCell, parseAlerts, type BrightSkyAlertsBody } from '../sources/brightsky/alerts.ts';

export const weather: DataType = {
  type: 'weather',
  label: 'Wetter',
  label_en: 'Weather',
  group: 'environment',
  tool: 'weather',
  summary: 'Current weather observed by the national weather service (DWD) nearest to the city',
  source: BRIGHTSKY,
  cache: { freshSeconds: 600, staleSeconds: 7200 },
  compare: { resource: 'weather' },
  highlight: 'weather',
  async fetch({ city, http }) {
    const body = await http.json<BrightSkyCurrent | { detail?: string }>('/current_weather', {
      query: { lat: city.lat, lon: city.lon, max_dist: 50000, units: 'dwd' },
      okStatuses: [404],
    });
    // 404 {"detail": ...} means no station within max_dist: the source works, it has nothing here.
    if (!('weather' in body)) return { data: null, status: 'no_data', meta: { reason: (body as { detail?: string }).detail ?? 'no DWD station within 50 km' } };
    const data = parseCurrentWeather(body);
    return { data, as_of: data.observed_at };
  },
};

type AlertsAnswer = BrightSkyAlertsBody | { detail?: string };

export const weatherWarnings: DataType = {
  type: 'weather-warnings',
  label: 'Unwetterwarnungen',
  label_en: 'Weather warnings',
  group: 'environment',
  tool: 'weather_warnings',
  summary: 'Active official weather warnings of the national weather service (DWD) for the city',
  description:
    "DWD warnings (CAP, municipality cells) through Bright Sky, which serves one cell per request as JSON; DWD's own WarnApp feed only " +
    'has district cells and is JSONP. The cell is "8" + the AGS; when Bright Sky does not know that cell, the register point is used. ' +
    "Texts are DWD's, unchanged, in German (*_de) and English (*_en). No active warning answers source_status no_data (data null, " +
    'meta.reason says so), as for other "nothing active" answers; the warn cell is in meta.warn_cell.',
  source: BRIGHTSKY_ALERTS,
  cache: { freshSeconds: 300, staleSeconds: 900 },
  compare: { resource: 'weather-warnings' },
  async fetch({ city, http }) {
    let body = await http.json<AlertsAnswer>('/alerts', { query: { warn_cell_id: municipalityWarnCell(city.ags) }, okStatuses: [404] });
    // 404 {"detail": "Unknown warn_cell_id ..."}: the cell id is not a DWD municipality cell; locate by coordinates.
    if (!('alerts' in body)) body = await http.json<AlertsAnswer>('/alerts', { query: { lat: city.lat, lon: city.lon }, okStatuses: [404] });
    if (!('alerts' in body))
      return { data: null, status: 'no_data', meta: { reason: (body as { detail?: string }).detail ?? 'no DWD warn cell for this city' } };
    const parsed = parseAlerts(body);
    if (parsed.warnings.length === 0) {
      return { data: null, status: 'no_data', meta: { reason: 'no active DWD warning', warn_cell: parsed.warn_cell } };
    }
    return { data: parsed, meta: { warn_cell: parsed.warn_cell } };
  },
};

export const DWD_TYPES: DataType[] = [weather, weatherWarnings];
