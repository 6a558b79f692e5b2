import { date, int, num, record, lazy, type Infer } from '../schema.ts';

export const DistrictHeatingRecord = lazy(() =>
  record({
    census_year: int('Census year (Zensus 2022)'),
    reference_date: date('Census reference date (Stichtag)'),
    buildings_by_energy_carrier: int('Buildings with living space whose heating energy carrier the census recorded'),
    buildings_district_heat: int('Of those, buildings heated with district heat (energy carrier Fernwärme)'),
    district_heat_share_pct: num('Share of buildings with living space heated with district heat', '%'),
    buildings_by_heating_type: int('Buildings with living space whose predominant heating type the census recorded'),
    buildings_district_heating_type: int('Of those, buildings whose predominant heating type is district heating (Fernheizung)'),
    district_heating_type_share_pct: num('Share of buildings with living space whose predominant heating type is district heating', '%'),
  }),
);
export type DistrictHeatingRecord = Infer<typeof DistrictHeatingRecord>;
