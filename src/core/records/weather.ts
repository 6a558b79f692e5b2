import { int, list, lat, lon, num, record, text, time, z, lazy, type Infer } from '../schema.ts';
import { typeRef } from '../type-ref.ts';

const stationRef = lazy(() =>
  record({
    dwd_station_id: text('DWD station id (5 digits)'),
    name: text('Station name'),
    distance_km: num('Distance from the city point', 'km'),
  }),
);

export const WeatherRecord = lazy(() =>
  record({
    observed_at: time('Time of the observation'),
    temperature_c: num('Air temperature 2 m above ground', '°C'),
    relative_humidity_pct: num('Relative humidity', '%'),
    dew_point_c: num('Dew point', '°C'),
    pressure_msl_hpa: num('Air pressure reduced to mean sea level', 'hPa'),
    wind_speed_kmh: num('Mean wind speed of the shortest window reported (10, 30 or 60 min)', 'km/h'),
    wind_direction_deg: num('Mean wind direction (0 = north, clockwise)', '°'),
    wind_gust_speed_kmh: num('Strongest gust of the shortest window reported', 'km/h'),
    wind_gust_direction_deg: num('Direction of that gust', '°'),
    precipitation_mm_10min: num('Precipitation in the last 10 minutes', 'mm'),
    precipitation_mm_60min: num('Precipitation in the last 60 minutes', 'mm'),
    cloud_cover_pct: num('Cloud cover', '%'),
    visibility_m: num('Visibility', 'm'),
    sunshine_min_60: num('Sunshine in the last 60 minutes', 'min'),
    solar_kwh_m2_10min: num('Global solar radiation of the last 10 minutes (newer Bright Sky answers only)', 'kWh/m²'),
    solar_kwh_m2_30min: num('Global solar radiation of the last 30 minutes', 'kWh/m²'),
    solar_kwh_m2_60min: num('Global solar radiation of the last 60 minutes', 'kWh/m²'),
    condition: text('Bright Sky condition: dry, fog, rain, sleet, snow, hail, thunderstorm'),
    icon: text('Bright Sky icon name, e.g. partly-cloudy-day'),
    station: record(
      {
        dwd_station_id: text('DWD station id (5 digits)'),
        wmo_station_id: text('WMO station id'),
        name: text('Station name'),
        lat: lat(),
        lon: lon(),
        height_m: num('Station height above sea level', 'm'),
        distance_km: num('Distance from the city point', 'km'),
      },
      'The main station of the observation',
    ).nullable(),
    fallback_stations: z
      .record(z.string(), stationRef().nullable())
      .nullable()
      .meta({ description: 'Per field, the station a value came from when the main station lacked it' }),
  }),
);
export type WeatherRecord = Infer<typeof WeatherRecord>;

/** The weather data type, for types that look it up. */
export const WEATHER = typeRef<WeatherRecord>('weather');

const warning = lazy(() =>
  record({
    id: text('DWD CAP message id'),
    status: text('CAP status: actual (test messages are left out)'),
    category: text('CAP category, e.g. met or health'),
    event_code: int('DWD event code (II)'),
    event_de: text('Event, German'),
    event_en: text('Event, English'),
    severity: text('minor, moderate, severe or extreme'),
    urgency: text('immediate or future'),
    certainty: text('observed or likely'),
    response_type: text('CAP response type, e.g. prepare, allclear'),
    headline_de: text('Headline as DWD issued it, German'),
    headline_en: text('Headline as DWD issued it, English'),
    description_de: text('Description, German (verbatim)'),
    description_en: text('Description, English (verbatim)'),
    instruction_de: text('Instruction, German (verbatim)'),
    instruction_en: text('Instruction, English (verbatim)'),
    effective_at: time('When the message was issued'),
    start: time('Onset of the warned event'),
    end: time('Expiry of the warning (null: until further notice)'),
  }),
);

export const WeatherWarningsRecord = lazy(() =>
  record({
    warn_cell: record(
      {
        id: int('DWD warn cell id'),
        name: text('Warn cell name'),
        name_short: text('Short warn cell name'),
        district: text('District of the cell'),
        state: text('Federal state'),
        state_short: text('Federal state, short'),
      },
      'The DWD warn cell the warnings are for',
    ).nullable(),
    warnings: list(warning(), 'Active warnings, as DWD issued them'),
  }),
);
export type WeatherWarningsRecord = Infer<typeof WeatherWarningsRecord>;
