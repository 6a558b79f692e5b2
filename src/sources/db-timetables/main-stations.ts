/**
 * The main railway station of each register city, by EVA number, for the per-city boards.
 * Provenance (see test/fixtures/db-timetables/README.md): InfraNode's curated board map
 * (research/infranode-facts.md §2.15, first EVA of each city) and public station lists of
 * DB/IRIS tooling. For the cities missing here the boards take the city's station of the best
 * StaDa category from the station catalog (db-timetables/adapters.ts).
 */
export const MAIN_STATION_EVA: Readonly<Record<string, { eva: string; name: string }>> = {
  berlin: { eva: '8011160', name: 'Berlin Hbf' },
  hamburg: { eva: '8002549', name: 'Hamburg Hbf' },
  muenchen: { eva: '8000261', name: 'München Hbf' },
  koeln: { eva: '8000207', name: 'Köln Hbf' },
  'frankfurt-am-main': { eva: '8000105', name: 'Frankfurt(Main)Hbf' },
  stuttgart: { eva: '8000096', name: 'Stuttgart Hbf' },
  duesseldorf: { eva: '8000085', name: 'Düsseldorf Hbf' },
  leipzig: { eva: '8010205', name: 'Leipzig Hbf' },
  dortmund: { eva: '8000080', name: 'Dortmund Hbf' },
  bremen: { eva: '8000050', name: 'Bremen Hbf' },
  essen: { eva: '8000098', name: 'Essen Hbf' },
  dresden: { eva: '8010085', name: 'Dresden Hbf' },
  nuernberg: { eva: '8000284', name: 'Nürnberg Hbf' },
  hannover: { eva: '8000152', name: 'Hannover Hbf' },
  bonn: { eva: '8000044', name: 'Bonn Hbf' },
  mannheim: { eva: '8000244', name: 'Mannheim Hbf' },
  karlsruhe: { eva: '8000191', name: 'Karlsruhe Hbf' },
  muenster: { eva: '8000263', name: 'Münster(Westf)Hbf' },
  augsburg: { eva: '8000013', name: 'Augsburg Hbf' },
  'freiburg-im-breisgau': { eva: '8000107', name: 'Freiburg(Breisgau) Hbf' },
  mainz: { eva: '8000240', name: 'Mainz Hbf' },
  aachen: { eva: '8000001', name: 'Aachen Hbf' },
  goettingen: { eva: '8000128', name: 'Göttingen' },
  kassel: { eva: '8003200', name: 'Kassel-Wilhelmshöhe' },
};
