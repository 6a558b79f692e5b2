import type { DataType } from './types.ts';
import { BRIGHTSKY } from '../sources/brightsky/source.ts';
import { parseCurrentWeather, type BrightSkyCurrent } from '../sources/brightsky/current-weather.ts';

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

export const DWD_TYPES: DataType[] = [weather];
