/**
 * The INKAR indicators `sustainability` carries, each with the SDG goal it reports on. Ids are
 * INKAR's `Kuerzel` of the area "LRB" (Laufende Raumbeobachtung), all published for Gemeinden;
 * the label is the CSV's `Indikator` text when present, this one otherwise.
 */
export interface InkarIndicator {
  id: string;
  label: string;
  unit: string;
  sdg: number;
}

/** The INKAR area (`Bereich`) the indicators are read from. */
export const INKAR_AREA = 'LRB';

export const SDG_INDICATORS: readonly InkarIndicator[] = [
  { id: 'a_hheink_niedrig', label: 'Haushalte mit niedrigem Einkommen', unit: '%', sdg: 1 },
  { id: 'm_Q07_HA_DIST', label: 'Entfernung zum Hausarzt', unit: 'm', sdg: 3 },
  { id: 'm_P01_PRIM_DIST', label: 'Entfernung zur Grundschule', unit: 'm', sdg: 4 },
  { id: 'a_aloLang', label: 'Langzeitarbeitslose', unit: '%', sdg: 8 },
  { id: 'a_bb_1000Mbits', label: 'Bandbreitenverfügbarkeit mindestens 1000 Mbit/s', unit: '% der Haushalte', sdg: 9 },
  { id: 'm_OEV20_DIST', label: 'Entfernung zur ÖV-Haltestelle', unit: 'm', sdg: 11 },
  { id: 'q_wofl_bev', label: 'Wohnfläche je Einwohner', unit: 'm²', sdg: 11 },
  { id: 'q_bev_fl', label: 'Einwohnerdichte', unit: 'Einwohner je km²', sdg: 11 },
];

export const SDG_INDICATOR_BY_ID: ReadonlyMap<string, InkarIndicator> = new Map(SDG_INDICATORS.map((i) => [i.id, i]));
