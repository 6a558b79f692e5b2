/**
 * The DWD pollen partregion of each register city (curated; provenance in
 * src/cities/PROVENANCE.md, section "Pollen partregions"). DWD's s31fg.json divides Germany into
 * 11 regions and 27 parts; regions without parts (20 Mecklenburg-Vorpommern, 50 Brandenburg und
 * Berlin) are listed with partregion_id -1 and are matched here by their region_id.
 */
export interface PollenArea {
  region_id: number;
  /** -1: the region has no parts. */
  partregion_id: number;
}

const area = (region_id: number, partregion_id: number): PollenArea => ({ region_id, partregion_id });

export const POLLEN_AREA_BY_CITY: Readonly<Record<string, PollenArea>> = {
  // 10 Schleswig-Holstein und Hamburg: 11 Inseln und Marschen, 12 Geest, Schleswig-Holstein und Hamburg
  hamburg: area(10, 12),
  kiel: area(10, 12),
  luebeck: area(10, 12),
  // 20 Mecklenburg-Vorpommern (no parts)
  rostock: area(20, -1),
  schwerin: area(20, -1),
  // 30 Niedersachsen und Bremen: 31 westliches Niedersachsen/Bremen, 32 östliches Niedersachsen
  bremen: area(30, 31),
  bremerhaven: area(30, 31),
  oldenburg: area(30, 31),
  osnabrueck: area(30, 31),
  hannover: area(30, 32),
  braunschweig: area(30, 32),
  wolfsburg: area(30, 32),
  goettingen: area(30, 32),
  salzgitter: area(30, 32),
  hildesheim: area(30, 32),
  // 40 Nordrhein-Westfalen: 41 Rhein.-Westfäl. Tiefland, 42 Ostwestfalen, 43 Mittelgebirge NRW
  koeln: area(40, 41),
  duesseldorf: area(40, 41),
  dortmund: area(40, 41),
  essen: area(40, 41),
  duisburg: area(40, 41),
  bochum: area(40, 41),
  bonn: area(40, 41),
  muenster: area(40, 41),
  gelsenkirchen: area(40, 41),
  moenchengladbach: area(40, 41),
  aachen: area(40, 41),
  krefeld: area(40, 41),
  oberhausen: area(40, 41),
  hamm: area(40, 41),
  'muelheim-an-der-ruhr': area(40, 41),
  leverkusen: area(40, 41),
  neuss: area(40, 41),
  herne: area(40, 41),
  bottrop: area(40, 41),
  recklinghausen: area(40, 41),
  'bergisch-gladbach': area(40, 41),
  moers: area(40, 41),
  bielefeld: area(40, 42),
  paderborn: area(40, 42),
  guetersloh: area(40, 42),
  wuppertal: area(40, 43),
  hagen: area(40, 43),
  solingen: area(40, 43),
  remscheid: area(40, 43),
  siegen: area(40, 43),
  // 50 Brandenburg und Berlin (no parts)
  berlin: area(50, -1),
  potsdam: area(50, -1),
  cottbus: area(50, -1),
  // 60 Sachsen-Anhalt: 61 Tiefland Sachsen-Anhalt, 62 Harz
  magdeburg: area(60, 61),
  'halle-saale': area(60, 61),
  // 70 Thüringen: 71 Tiefland Thüringen, 72 Mittelgebirge Thüringen
  erfurt: area(70, 71),
  jena: area(70, 71),
  // 80 Sachsen: 81 Tiefland Sachsen, 82 Mittelgebirge Sachsen
  leipzig: area(80, 81),
  dresden: area(80, 81),
  chemnitz: area(80, 81),
  // 90 Hessen: 91 Nordhessen und hess. Mittelgebirge, 92 Rhein-Main
  kassel: area(90, 91),
  'frankfurt-am-main': area(90, 92),
  wiesbaden: area(90, 92),
  darmstadt: area(90, 92),
  'offenbach-am-main': area(90, 92),
  hanau: area(90, 92),
  // 100 Rheinland-Pfalz und Saarland: 101 Rhein, Pfalz, Nahe und Mosel, 102 Mittelgebirgsbereich Rheinland-Pfalz, 103 Saarland
  mainz: area(100, 101),
  'ludwigshafen-am-rhein': area(100, 101),
  koblenz: area(100, 101),
  trier: area(100, 101),
  kaiserslautern: area(100, 102),
  saarbruecken: area(100, 103),
  // 110 Baden-Württemberg: 111 Oberrhein und unteres Neckartal, 112 Hohenlohe/mittlerer Neckar/Oberschwaben, 113 Mittelgebirge Baden-Württemberg
  mannheim: area(110, 111),
  karlsruhe: area(110, 111),
  'freiburg-im-breisgau': area(110, 111),
  heidelberg: area(110, 111),
  stuttgart: area(110, 112),
  heilbronn: area(110, 112),
  ulm: area(110, 112),
  reutlingen: area(110, 112),
  pforzheim: area(110, 113),
  // 120 Bayern: 121 Allgäu/Oberbayern/Bay. Wald, 122 Donauniederungen, 123 Bayern nördl. der Donau, o. Bayr. Wald, o. Mainfranken, 124 Mainfranken
  muenchen: area(120, 121),
  augsburg: area(120, 121),
  regensburg: area(120, 122),
  ingolstadt: area(120, 122),
  nuernberg: area(120, 123),
  fuerth: area(120, 123),
  erlangen: area(120, 123),
  wuerzburg: area(120, 124),
};
