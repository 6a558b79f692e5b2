import { date, int, lat, lon, num, oneOf, record, text, time, z } from '../schema.ts';

const mnwMhw = ['low', 'normal', 'high', 'unknown', 'commented', 'out-dated'] as const;

export const WaterLevelRecord = record({
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
});
export type WaterLevelRecord = z.infer<typeof WaterLevelRecord>;
