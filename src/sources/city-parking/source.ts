import type { SourceDecl } from '../../core/source.ts';

/**
 * Parking feeds the cities publish themselves (keyless). The base URL is Freiburg's parking
 * guidance WFS; Karlsruhe's car park layer is a further URL. Each site names its feed and licence.
 */
export const CITY_PARKING: SourceDecl = {
  id: 'city-parking',
  name: 'Municipal parking feeds (Freiburg im Breisgau, Karlsruhe)',
  env: 'CITY_PARKING',
  baseUrl: 'https://geoportal.freiburg.de/wfs/gdm_pls/gdm_plslive',
  urls: {
    karlsruhe: {
      env: 'CITY_PARKING_KARLSRUHE_URL',
      default: 'https://mobil.trk.de/geoserver/TBA/ows?service=WFS&version=1.0.0&request=GetFeature&typeName=TBA:parkhaeuser&outputFormat=application/json',
      description: "Karlsruhe's car park layer (WFS TBA:parkhaeuser, GeoJSON, CC BY 4.0 Stadt Karlsruhe)",
    },
  },
  license: 'DL-DE/BY 2.0 (Stadt Freiburg im Breisgau); CC BY 4.0 (Stadt Karlsruhe)',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Stadt Freiburg im Breisgau, Parkleitsystem (dl-de/by-2-0); Stadt Karlsruhe, Parkhäuser (CC BY 4.0)',
  timeoutMs: 10000,
  // A city's car park layer: tens of features, well under a megabyte.
  maxResponseBytes: 4 * 1024 * 1024,
};

/** Per city feed: the id and licence every site of it carries. */
export const FEEDS = {
  freiburg: { source: 'freiburg-parkleitsystem', license: 'DL-DE/BY 2.0 (Stadt Freiburg im Breisgau)' },
  karlsruhe: { source: 'karlsruhe-parkhaeuser', license: 'CC BY 4.0 (Stadt Karlsruhe)' },
} as const;
