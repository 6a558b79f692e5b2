import { date, int, lat, list, lon, num, oneOf, record, text, time, lazy, type Infer } from '../schema.ts';

const mnwMhw = ['low', 'normal', 'high', 'unknown', 'commented', 'out-dated'] as const;

export const WaterLevelRecord = lazy(() =>
  record({
    uuid: text('PEGELONLINE station UUID (stable; names can change)'),
    number: text('Gauge number of the WSV'),
    name: text('Gauge name as PEGELONLINE writes it (upper case, e.g. KÖLN)'),
    water: text('Waterway, e.g. RHEIN'),
    river_km: num('Position on the waterway', 'km'),
    agency: text('Responsible waterways and shipping office (WSA)'),
    lat: lat(),
    lon: lon(),
    distance_km: num('Distance of the gauge from the city point', 'km'),
    value_cm: num('Current water level above the gauge zero', 'cm'),
    measured_at: time('Time of the current value'),
    state_mnw_mhw: oneOf(mnwMhw, 'Level relative to mean low (MNW) and mean high (MHW) water: low, normal, high, unknown'),
    state_nsw_hsw: oneOf(mnwMhw, 'Level relative to the lowest (NSW) and highest (HSW) shipping water level'),
    trend: int('Trend of the level as PEGELONLINE gives it: -1 falling, 0 steady, 1 rising (null: not given)'),
    gauge_zero_m: num('Gauge zero (PNP) in metres above sea level (NHN)', 'm'),
    gauge_zero_valid_from: date('Since when the gauge zero applies'),
    level_nhn_m: num('Current water level above sea level: gauge zero + value', 'm'),
    mnw_cm: num('Mean low water (MNW) of the gauge', 'cm'),
    mw_cm: num('Mean water (MW) of the gauge', 'cm'),
    mhw_cm: num('Mean high water (MHW) of the gauge', 'cm'),
    hsw_cm: num('Highest shipping water level (HSW), where defined', 'cm'),
  }),
);
export type WaterLevelRecord = Infer<typeof WaterLevelRecord>;

const floodGauge = lazy(() =>
  record({
    gauge_id: text('LHP gauge number (PGNR), e.g. NW_2730010'),
    name: text('Gauge name (PN)'),
    water: text('River (GW)'),
    warning_level: int('LHP warning level (Meldestufe) 1 to 4; 0 none; null: no current data'),
    warning_label: text('Warning level as the flood centre words it (HW_TXT)'),
    water_level_cm: num('Water level as given by the flood centre', 'cm'),
    water_level_text: text('Water level as published, e.g. "108 cm"'),
    discharge_m3s: num('Discharge', 'm³/s'),
    discharge_text: text('Discharge as published, e.g. "38,5 m3/s"'),
    measured_at: time('Time of the value (ZEIT, German relative text read against the Berlin day)'),
    stand_text: text('ZEIT as published, e.g. "Heute, 18:00 Uhr"'),
    hint: text('Note of the flood centre (HINT)'),
    gauge_url: text('Page of the gauge at the flood centre of the Land'),
    state: text('Land of the gauge (ID_LAND)'),
    state_url: text('Flood centre of the Land'),
  }),
);
export type FloodGauge = Infer<typeof floodGauge>;

export const FloodRecord = lazy(() =>
  record({
    updated_at: time('Newest time among the gauges: the "Stand" of the data'),
    stand: text('"Stand: TT.MM.JJJJ hh:mm" as the portal requires it beside the source'),
    max_warning_level: int('Highest warning level among the gauges (0 none, 1 to 4)'),
    gauges: list(floodGauge(), 'The curated LHP gauges of the city'),
  }),
);
export type FloodRecord = Infer<typeof FloodRecord>;
