import type { SourceDecl } from '../../core/source.ts';
import { DWD_OPEN_DATA_TERMS } from '../dwd-terms.ts';

/**
 * DWD health forecasts on opendata.dwd.de: the pollen flight hazard index (s31fg.json) and the
 * UV index forecast (uvi.json), each one national file of a few kilobytes, issued once a day.
 * Values are regional (pollen partregions, UV measurement cities), not city-exact, and are
 * re-shaped here, so the attribution carries DWD's modification notice.
 */
export const DWD_HEALTH: SourceDecl = {
  id: 'dwd-health',
  name: 'Deutscher Wetterdienst (Medizin-Meteorologie: Pollenflug und UV-Index)',
  env: 'DWD_HEALTH',
  baseUrl: 'https://opendata.dwd.de/climate_environment/health/alerts',
  ...DWD_OPEN_DATA_TERMS,
  timeoutMs: 10000,
  // Both files are well under 100 KB; 1 MB leaves room without accepting anything unreasonable.
  maxResponseBytes: 1024 * 1024,
};
