import { bool, date, int, lat, list, lon, num, oneOf, record, text, time, lazy, type Infer } from '../schema.ts';

const day = (when: string) =>
  record(
    {
      level: text('DWD level as published: 0, 0-1, 1, 1-2, 2, 2-3 or 3 (null: DWD gives -1, no forecast)'),
      level_value: num('The level as a number 0 to 3 (0-1 is 0.5 and so on)'),
      label: text('DWD label of the level, German (e.g. "geringe Belastung")'),
      reason: text('Why the level is missing (null when it is present)'),
    },
    `Forecast for ${when}`,
  );

const pollenType = lazy(() =>
  record({
    type: text('Pollen type as DWD names it: Hasel, Erle, Esche, Birke, Graeser, Roggen, Beifuss, Ambrosia'),
    type_en: text('Pollen type, English'),
    today: day('the day of issue'),
    tomorrow: day('the day after issue'),
    day_after_tomorrow: day('the second day after issue'),
  }),
);

const uvRisk = ['low', 'moderate', 'high', 'very_high', 'extreme'] as const;

export const PollenUvRecord = lazy(() =>
  record({
    region: record(
      {
        region_id: int('DWD pollen region id'),
        region_name: text('DWD pollen region'),
        partregion_id: int('DWD pollen partregion id (null: the region has no parts)'),
        partregion_name: text('DWD pollen partregion (null: the region has no parts)'),
      },
      'The DWD pollen area of the city (curated city -> partregion map)',
    ),
    pollen_issued_at: time('When DWD issued the pollen forecast (last_update)'),
    pollen_next_update_at: time('When DWD plans the next pollen forecast (next_update)'),
    pollen_today_date: date('The day the "today" values describe: the day of issue'),
    pollen_stale: bool('True when the day of issue is before the current day: "today" then describes an earlier day'),
    pollen_max_today: num('Highest numeric pollen level of the day of issue over all types (0 to 3)'),
    pollen: list(pollenType(), 'The eight pollen types DWD forecasts'),
    uv: record(
      {
        station: text('UV measurement city of the DWD forecast'),
        own_station: bool('True when the UV city is the city itself; else the nearest lowland UV city'),
        distance_km: num('Distance of the UV city from the city point', 'km'),
        lat: lat(),
        lon: lon(),
        issued_at: time('When DWD issued the UV forecast (last_update)'),
        today: int('UV index forecast for the day of issue (daily maximum)'),
        tomorrow: int('UV index forecast for the next day'),
        day_after_tomorrow: int('UV index forecast for the day after'),
        today_risk: oneOf(uvRisk, 'WHO risk class of today: low (0-2), moderate (3-5), high (6-7), very_high (8-10), extreme (11+)'),
      },
      'UV index forecast of the DWD',
    ).nullable(),
  }),
);
export type PollenUvRecord = Infer<typeof PollenUvRecord>;
