/**
 * Register cities through which a federal waterway (Bundeswasserstraße: the rivers and canals
 * the WSV runs, where PEGELONLINE has its gauges) passes. Curated from the waterway a city lies on
 * (river, canal or coast named in the comment); see src/cities/PROVENANCE.md, section "Federal
 * gauges". A listed city whose radius query finds no gauge with a water level answers no_data.
 */
export const WATER_LEVEL_CITIES: readonly string[] = [
  'berlin', // Spree, Havel, Landwehrkanal, Spandauer Schifffahrtskanal
  'hamburg', // Elbe
  'koeln', // Rhein
  'frankfurt-am-main', // Main
  'duesseldorf', // Rhein
  'stuttgart', // Neckar
  'dortmund', // Dortmund-Ems-Kanal
  'bremen', // Weser
  'essen', // Rhein-Herne-Kanal
  'dresden', // Elbe
  'nuernberg', // Main-Donau-Kanal
  'hannover', // Mittellandkanal
  'duisburg', // Rhein, Ruhr, Rhein-Herne-Kanal
  'bonn', // Rhein
  'mannheim', // Rhein, Neckar
  'karlsruhe', // Rhein
  'muenster', // Dortmund-Ems-Kanal
  'wiesbaden', // Rhein
  'gelsenkirchen', // Rhein-Herne-Kanal
  'braunschweig', // Mittellandkanal
  'kiel', // Nord-Ostsee-Kanal, Kieler Förde
  'magdeburg', // Elbe
  'krefeld', // Rhein
  'halle-saale', // Saale
  'mainz', // Rhein
  'luebeck', // Trave, Elbe-Lübeck-Kanal
  'oberhausen', // Rhein-Herne-Kanal
  'rostock', // Warnow, Ostsee
  'kassel', // Fulda
  'potsdam', // Havel
  'saarbruecken', // Saar
  'hamm', // Datteln-Hamm-Kanal
  'ludwigshafen-am-rhein', // Rhein
  'oldenburg', // Hunte, Küstenkanal
  'muelheim-an-der-ruhr', // Ruhr
  'leverkusen', // Rhein
  'osnabrueck', // Stichkanal Osnabrück
  'herne', // Rhein-Herne-Kanal
  'neuss', // Rhein
  'heidelberg', // Neckar
  'regensburg', // Donau
  'wuerzburg', // Main
  'offenbach-am-main', // Main
  'fuerth', // Main-Donau-Kanal
  'heilbronn', // Neckar
  'wolfsburg', // Mittellandkanal
  'bremerhaven', // Weser, Nordsee
  'bottrop', // Rhein-Herne-Kanal
  'erlangen', // Main-Donau-Kanal
  'recklinghausen', // Rhein-Herne-Kanal
  'koblenz', // Rhein, Mosel
  'salzgitter', // Stichkanal Salzgitter
  'trier', // Mosel
  'hildesheim', // Stichkanal Hildesheim
  'schwerin', // Störwasserstraße (Schweriner See)
  'hanau', // Main
];
