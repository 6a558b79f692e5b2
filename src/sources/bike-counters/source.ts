import type { SourceDecl } from '../../core/source.ts';

/**
 * Permanent bicycle counting stations the cities publish as open data (keyless). One source,
 * one upstream family per city: the base URL is Hamburg's CSV export directory; Berlin's XLSX
 * workbook, Leipzig's WFS and München's WFS and CKAN portal are further URLs. Each station names
 * its city feed and licence. The files are large (Berlin's workbook about 18 MB, Hamburg: hourly
 * counts since 2014), so only the nightly precompute (job bike-counts-precompute) reads them;
 * requests read the store.
 */
export const BIKE_COUNTERS: SourceDecl = {
  id: 'bike-counters',
  name: 'Municipal bicycle counting stations (open data of the cities)',
  env: 'BIKE_COUNTERS',
  baseUrl: 'https://daten-hamburg.de/transport_verkehr/dauerzaehlstellen_rad',
  urls: {
    berlin: {
      env: 'BIKE_COUNTERS_BERLIN_URL',
      default:
        'https://www.berlin.de/sen/uvk/_assets/verkehr/verkehrsplanung/radverkehr/weitere-radinfrastruktur/zaehlstellen-und-fahrradbarometer/gesamtdatei-stundenwerte.xlsx',
      description: "Berlin's workbook of hourly counts (XLSX, sheets Standortdaten and Jahresdatei <year>, DL-DE/Zero 2.0 SenMVKU Berlin)",
    },
    leipzig: {
      env: 'BIKE_COUNTERS_LEIPZIG_URL',
      default: 'https://geodienste.leipzig.de/l3/OpenData/wfs',
      description: "Leipzig's open-data WFS (daily layer OpenData:radverkehr_dauerzaehlstelle_anzahl_tag_zeitreihe, dl-de/by-2-0 Stadt Leipzig)",
    },
    muenchen_wfs: {
      env: 'BIKE_COUNTERS_MUENCHEN_WFS_URL',
      default: 'https://geoportal.muenchen.de/geoserver/mor_wfs/ows',
      description: "München's geoportal WFS (station layer mor_wfs:raddauerzaehlstellen, dl-de/by-2-0 Landeshauptstadt München)",
    },
    muenchen_ckan: {
      env: 'BIKE_COUNTERS_MUENCHEN_CKAN_URL',
      default: 'https://opendata.muenchen.de',
      description: "München's open-data portal (CKAN package daten-der-raddauerzaehlstellen-muenchen-<year>, monthly *_tage.csv files)",
    },
  },
  license: 'per city: DL-DE/BY 2.0 (Hamburg, Leipzig, München), DL-DE/Zero 2.0 (Berlin); see each station',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution:
    'Senatsverwaltung für Mobilität, Verkehr, Klimaschutz und Umwelt Berlin, Freie und Hansestadt Hamburg (Behörde für Verkehr und Mobilitätswende), Stadt Leipzig, Landeshauptstadt München; each station names its city feed and licence',
  timeoutMs: 60000,
  // Berlin's workbook is about 18 MB and grows by a year sheet every year; Hamburg's export holds every hour
  // since 2014 (a few MB); Leipzig's daily layer is asked for the newest rows only.
  maxResponseBytes: 64 * 1024 * 1024,
};

/** Per city feed: the id and licence every station of it carries. */
export const BIKE_FEEDS = {
  berlin: { source: 'berlin-radzaehlstellen', license: 'DL-DE/Zero 2.0 (Senatsverwaltung für Mobilität, Verkehr, Klimaschutz und Umwelt Berlin)' },
  hamburg: { source: 'hamburg-dauerzaehlstellen-rad', license: 'DL-DE/BY 2.0 (Freie und Hansestadt Hamburg)' },
  leipzig: { source: 'leipzig-radverkehr-dauerzaehlstellen', license: 'DL-DE/BY 2.0 (Stadt Leipzig)' },
  muenchen: { source: 'muenchen-raddauerzaehlstellen', license: 'DL-DE/BY 2.0 (Landeshauptstadt München)' },
} as const;
