import type { SourceDecl } from '../../core/source.ts';

/**
 * Parking feeds the cities publish themselves (keyless), one source per upstream host so each
 * has its own toggle, breaker and status: Freiburg's parking guidance WFS, Karlsruhe's car park
 * layer, Dortmund's Opendatasoft dataset, and the ParkenDD aggregator for the cities whose
 * origin feed carries an open licence. Every site names its feed and licence.
 */
const PARKING_FEED = { tier: 'A', timeoutMs: 10000, maxResponseBytes: 4 * 1024 * 1024 } as const;

export const FREIBURG_PARKING: SourceDecl = {
  ...PARKING_FEED,
  id: 'freiburg-parking',
  name: 'Stadt Freiburg im Breisgau, Parkleitsystem (WFS)',
  env: 'FREIBURG_PARKING',
  baseUrl: 'https://geoportal.freiburg.de/wfs/gdm_pls/gdm_plslive',
  license: 'DL-DE/BY 2.0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  attribution: 'Stadt Freiburg im Breisgau, Parkleitsystem',
};

export const KARLSRUHE_PARKING: SourceDecl = {
  ...PARKING_FEED,
  id: 'karlsruhe-parking',
  name: 'Stadt Karlsruhe, Parkhäuser (WFS TBA:parkhaeuser)',
  env: 'KARLSRUHE_PARKING',
  baseUrl: 'https://mobil.trk.de/geoserver/TBA/ows',
  license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Stadt Karlsruhe, Tiefbauamt',
};

export const DORTMUND_PARKING: SourceDecl = {
  ...PARKING_FEED,
  id: 'dortmund-parking',
  name: 'Stadt Dortmund, Parkhäuser (Opendatasoft dataset parkhauser)',
  env: 'DORTMUND_PARKING',
  baseUrl: 'https://open-data.dortmund.de/api/explore/v2.1/catalog/datasets/parkhauser/records',
  license: 'DL-DE/Zero 2.0',
  licenseUrl: 'https://www.govdata.de/dl-de/zero-2-0',
  attribution: 'Stadt Dortmund',
};

export const PARKENDD: SourceDecl = {
  ...PARKING_FEED,
  id: 'parkendd',
  name: 'ParkenDD (ParkAPI v1 aggregator)',
  env: 'PARKENDD',
  baseUrl: 'https://api.parkendd.de',
  // Per city feed; every site names its own licence.
  license: 'per city: DL-DE/BY 2.0, DL-DE/Zero 2.0, CC BY 4.0 or CC0 (see each site)',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  attribution:
    'The cities whose feeds ParkenDD (api.parkendd.de) aggregates, used only where the origin feed has an open licence; each site names its feed and licence',
};

/** Per city feed: the id and licence every site of it carries. */
export const FEEDS = {
  freiburg: { source: 'freiburg-parkleitsystem', license: 'DL-DE/BY 2.0 (Stadt Freiburg im Breisgau)' },
  karlsruhe: { source: 'karlsruhe-parkhaeuser', license: 'CC BY 4.0 (Stadt Karlsruhe)' },
  dortmund: { source: 'dortmund-parkhaeuser', license: 'DL-DE/Zero 2.0 (Stadt Dortmund)' },
} as const;
