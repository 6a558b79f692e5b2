/** The five pollutants of the air record: UBA component ids (components/json) and units. */
export interface Pollutant {
  key: 'pm10' | 'pm25' | 'no2' | 'o3' | 'so2';
  id: number;
  code: string;
  unit: string;
}

export const POLLUTANTS: readonly Pollutant[] = [
  { key: 'pm10', id: 1, code: 'PM10', unit: 'µg/m³' },
  { key: 'pm25', id: 9, code: 'PM2.5', unit: 'µg/m³' },
  { key: 'no2', id: 5, code: 'NO2', unit: 'µg/m³' },
  { key: 'o3', id: 3, code: 'O3', unit: 'µg/m³' },
  { key: 'so2', id: 4, code: 'SO2', unit: 'µg/m³' },
];

export const POLLUTANT_BY_ID: ReadonlyMap<number, Pollutant> = new Map(POLLUTANTS.map((p) => [p.id, p]));

/** Scope 2 = "1SMW", the one-hour mean (scopes/json). */
export const HOURLY_SCOPE = { id: 2, code: '1SMW' } as const;

/** UBA's air quality index classes 0..4 (airquality/json). */
export const INDEX_LABELS = ['sehr gut', 'gut', 'mäßig', 'schlecht', 'sehr schlecht'] as const;
export const INDEX_LABELS_EN = ['very good', 'good', 'moderate', 'poor', 'very poor'] as const;
