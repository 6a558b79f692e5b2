import { bool, int, list, lat, lon, num, postCode, record, text, time, lazy, type Infer } from '../schema.ts';

const station = {
  id: text('UBA station id'),
  code: text('UBA station code, e.g. DENW212'),
  name: text('Station name'),
  place: text('Municipality UBA names for the station ("station city")'),
  setting: text('Station setting: urban, suburban or rural area'),
  station_type: text('Station type: background, traffic or industry'),
  network: text('Measuring network (Land or federal)'),
  lat: lat(),
  lon: lon(),
  distance_km: num('Distance from the city point', 'km'),
};

const reading = lazy(() =>
  record({
    component: text('Pollutant code: PM10, PM2.5, NO2, O3, SO2'),
    component_id: int('UBA component id'),
    value: num('One-hour mean', 'µg/m³'),
    unit: text('Unit of value (µg/m³)'),
    scope: text('UBA averaging scope code (1SMW: one-hour mean)'),
    time: time('End of the averaging hour: the time the value describes'),
    period_start: time('Start of the averaging hour'),
    station: record({ id: text('UBA station id'), code: text('UBA station code'), name: text('Station name'), distance_km: num('Distance', 'km') }),
    distance_km: num('Distance of the station from the city point', 'km'),
  }).nullable(),
);

export const AirRecord = lazy(() =>
  record({
    observed_at: time('Newest hour among the readings'),
    readings: record(
      { pm10: reading(), pm25: reading(), no2: reading(), o3: reading(), so2: reading() },
      'Per pollutant the reading of the nearest station that reported it (null: none within reach)',
    ),
    stations: list(record(station), 'The stations the readings come from'),
  }),
);
export type AirRecord = Infer<typeof AirRecord>;

export const AirStationRecord = lazy(() =>
  record({
    ...station,
    street: text('Street of the station'),
    house_number: text('House number'),
    post_code: postCode(),
    latest: record(
      {
        start: time('Start of the hour'),
        end: time('End of the hour'),
        index: int('UBA air quality index: 0 very good to 4 very poor'),
        index_label: text('Index class, German'),
        index_label_en: text('Index class, English'),
        incomplete: bool('UBA flags the hour incomplete when not every index component was measured'),
        components: list(
          record({
            component: text('Pollutant code'),
            component_id: int('UBA component id'),
            value: num('Value of the hour', 'µg/m³'),
            unit: text('Unit of value'),
            index: int('Index class of this component (0-4)'),
          }),
          'The components the index is based on',
        ),
      },
      'The latest published hour of the station',
    ).nullable(),
  }),
);
export type AirStationRecord = Infer<typeof AirStationRecord>;
