import type { SourceDecl } from '../../core/source.ts';

/**
 * Parking feeds the cities publish themselves (keyless). The base URL is Freiburg's parking
 * guidance WFS; Karlsruhe's car park layer, Dortmund's Opendatasoft dataset and the ParkenDD aggregator are further URLs. Each
 * site names its feed and licence.
 */
export const CITY_PARKING: SourceDecl = {
  id: 'city-parking',
  name: 'Municipal parking feeds (direct and through ParkenDD)',
  env: 'CITY_PARKING',
  baseUrl: 'https://geoportal.freiburg.de/wfs/gdm_pls/gdm_plslive',
  urls: {
    parkendd: {
      env: 'CITY_PARKING_PARKENDD_URL',
      default: 'https://api.parkendd.de',
      description: 'ParkenDD aggregator (ParkAPI v1), used only for cities whose origin feed has an open licence',
    },
    karlsruhe: {
      env: 'CITY_PARKING_KARLSRUHE_URL',
      default: 'https://mobil.trk.de/geoserver/TBA/ows?service=WFS&version=1.0.0&request=GetFeature&typeName=TBA:parkhaeuser&outputFormat=application/json',
      description: "Karlsruhe's car park layer (WFS TBA:parkhaeuser, GeoJSON, CC BY 4.0 Stadt Karlsruhe)",
    },
    dortmund: {
      env: 'CITY_PARKING_DORTMUND_URL',
      default: 'https://open-data.dortmund.de/api/explore/v2.1/catalog/datasets/parkhauser/records?limit=100',
      description: "Dortmund's car park dataset parkhauser (Opendatasoft Explore API v2.1, DL-DE/Zero 2.0 Stadt Dortmund)",
    },
  },
  // Per city feed; every site names its own licence.
  license: 'per city: DL-DE/BY 2.0, DL-DE/Zero 2.0, CC BY 4.0 or CC0 (see each site)',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution:
    "Stadt Freiburg im Breisgau, Stadt Karlsruhe, Stadt Dortmund and the cities whose feeds ParkenDD (api.parkendd.de) aggregates, merged with MobiData BW's ParkAPI v3 where it covers the city; each site names its feed (source) and licence",
  timeoutMs: 10000,
  // A city's car park layer: tens of features, well under a megabyte.
  maxResponseBytes: 4 * 1024 * 1024,
};

/** Per city feed: the id and licence every site of it carries. */
export const FEEDS = {
  freiburg: { source: 'freiburg-parkleitsystem', license: 'DL-DE/BY 2.0 (Stadt Freiburg im Breisgau)' },
  karlsruhe: { source: 'karlsruhe-parkhaeuser', license: 'CC BY 4.0 (Stadt Karlsruhe)' },
  dortmund: { source: 'dortmund-parkhaeuser', license: 'DL-DE/Zero 2.0 (Stadt Dortmund)' },
} as const;
