import type { SourceDecl } from '../../core/source.ts';

const BASE = 'https://download-data.deutschebahn.com/static/datasets';

/**
 * DB's open station data (CC BY 4.0 downloads, no account): the station list "Stationsdaten"
 * (name, DS100, category, address) and the stop list "Haltestellen" (EVA number, DS100,
 * coordinates). The keyless fallback of `stations`; the files are dated editions (Stand 2020-03).
 */
export const DB_OPEN_STATIONS: SourceDecl = {
  id: 'db-open-stations',
  name: 'DB open station data (Stationsdaten and Haltestellen downloads)',
  env: 'DB_OPEN_STATIONS',
  // The base URL is the station list "Stationsdaten" (CSV, `;`): station name, DS100 code,
  // category (Kat. Vst), post code and Ort; the stop list is the second file.
  baseUrl: `${BASE}/stationsdaten/DBSuS-Uebersicht_Bahnhoefe-Stand2020-03.csv`,
  urls: {
    haltestellen: {
      env: 'DB_OPEN_STATIONS_HALTESTELLEN_URL',
      default: `${BASE}/haltestellen/D_Bahnhof_2020_alle.CSV`,
      description: 'Stop list "Haltestellen" (CSV, `;`, decimal comma): EVA number, DS100 codes and coordinates',
    },
  },
  license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
  tier: 'A',
  attribution: 'Deutsche Bahn AG / DB InfraGO AG, CC BY 4.0',
  timeoutMs: 30_000,
  // Each file has some 5,400-6,500 lines, about 1 MB; the cap leaves room for a larger edition.
  maxResponseBytes: 4 * 1024 * 1024,
};
