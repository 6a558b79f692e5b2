/**
 * Where the UV measurement cities of DWD's uvi.json lie (uvi.json names a city, no position).
 * Positions are the DWD station coordinates of those cities (provenance in
 * src/cities/PROVENANCE.md, section "UV index stations"). Mountain stations are never used as
 * the nearest station of another city: their UV index is that of the summit, not of a town.
 */
export interface UvStation {
  name: string;
  lat: number;
  lon: number;
  mountain: boolean;
}

const s = (name: string, lat: number, lon: number, mountain = false): UvStation => ({ name, lat, lon, mountain });

export const UV_STATIONS: readonly UvStation[] = [
  s('Arkona', 54.683, 13.433),
  s('Berlin', 52.517, 13.417),
  s('Bonn', 50.733, 7.183),
  s('Bremen', 53.05, 8.8),
  s('Cottbus', 51.783, 14.317),
  s('Dresden', 51.05, 13.733),
  s('Düsseldorf', 51.3, 6.767),
  s('Frankfurt/Main', 50.05, 8.6),
  s('Freiburg', 48.017, 7.833),
  s('Großer Arber', 49.117, 13.133, true),
  s('Hahn', 49.95, 7.267),
  s('Hamburg', 53.55, 9.983),
  s('Hannover', 52.467, 9.683),
  s('Kahler Asten', 51.183, 8.483, true),
  s('Kassel', 51.3, 9.45),
  s('Kiel', 54.383, 10.15),
  s('Konstanz', 47.683, 9.183),
  s('Leipzig', 51.317, 12.417),
  s('List auf Sylt', 55.017, 8.417),
  s('Magdeburg', 52.117, 11.583),
  s('Marienleuchte', 54.467, 11.167),
  s('München', 48.167, 11.533),
  s('Neubrandenburg', 53.55, 13.2),
  s('Norderney', 53.717, 7.15),
  s('Nürnberg', 49.5, 11.05),
  s('Osnabrück', 52.25, 8.05),
  s('Regensburg', 49.033, 12.1),
  s('Rostock', 54.083, 12.133),
  s('Sankt Peter-Ording', 54.317, 8.683),
  s('Seehausen', 52.883, 11.733),
  s('Stuttgart', 48.833, 9.2),
  s('Ulm', 48.383, 9.95),
  s('Waren', 53.517, 12.667),
  s('Weimar', 50.983, 11.317),
  s('Weinbiet', 49.383, 8.117, true),
  s('Wernigerode', 51.85, 10.767),
  s('Würzburg', 49.767, 9.967),
  s('Zugspitze', 47.417, 10.983, true),
];
