import type { SourceDecl } from '../../core/source.ts';
import { DWD_OPEN_DATA_TERMS } from '../dwd-terms.ts';

/**
 * DWD Climate Data Center, derived fire danger indices: woodland (Waldbrandgefahrenindex, WBI)
 * and grassland (Graslandfeuerindex, GLFI) station forecasts, one small gzipped CSV per station
 * and a station list, refreshed once a day in the season (March to October).
 */
export const DWD_FIRE: SourceDecl = {
  id: 'dwd-fire',
  name: 'Deutscher Wetterdienst (CDC: Waldbrand- und Graslandfeuerindex)',
  env: 'DWD_FIRE',
  baseUrl: 'https://opendata.dwd.de/climate_environment/CDC/derived_germany/fire_danger_index',
  ...DWD_OPEN_DATA_TERMS,
  timeoutMs: 10000,
  // The station list is ~40 KB, a station file ~10 KB gzipped.
  maxResponseBytes: 2 * 1024 * 1024,
};

/** File names carry the product version; a new DWD version changes them. */
export const WOODLAND_DIR = '/woodland/forecast/recent';
export const WOODLAND_PREFIX = 'derived_germany_fire_danger_index_woodland_forecast_recent';
export const WOODLAND_VERSION = 'v2-3--0';
export const GRASSLAND_DIR = '/grassland/forecast/recent';
export const GRASSLAND_PREFIX = 'derived_germany_fire_danger_index_grassland_forecast_recent';
export const GRASSLAND_VERSION = 'v2-0--0';
