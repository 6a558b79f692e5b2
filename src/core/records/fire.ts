import { date, int, lat, list, lon, num, record, text, time, lazy, type Infer } from '../schema.ts';

const day = lazy(() =>
  record({
    date: date('Day the level is forecast for (day 0 is the day of the model run)'),
    day_offset: int('Days after the model run (0 to 6)'),
    level: int('Danger level 1 (very low) to 5 (very high); null: no value'),
    label: text('Level, German (e.g. "mittlere Gefahr")'),
    label_en: text('Level, English (e.g. "moderate")'),
  }),
);

const index = lazy(() =>
  record(
    {
      index: text('WBI (Waldbrandgefahrenindex, woodland) or GLFI (Graslandfeuerindex, grassland)'),
      today: day().nullable(),
      days: list(day(), 'Forecast for the day of the run and the six days after it'),
    },
    'One index of the station',
  ),
);

export const FireDangerRecord = lazy(() =>
  record({
    station: record(
      {
        id: text('DWD station id'),
        name: text('Station name'),
        state: text('Federal state of the station'),
        lat: lat(),
        lon: lon(),
        height_m: num('Station height above sea level', 'm'),
        distance_km: num('Distance from the city point', 'km'),
      },
      'The nearest DWD fire danger station: values are station-exact, not city-exact',
    ),
    run_at: time('Time of the DWD model run the forecast comes from'),
    level_today: int('Higher of the woodland and grassland levels of the current day (1 to 5)'),
    woodland: index().nullable(),
    grassland: index().nullable(),
  }),
);
export type FireDangerRecord = Infer<typeof FireDangerRecord>;
