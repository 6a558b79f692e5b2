import type { Adapter } from '../../core/data-type.ts';
import type { DistrictHeatingRecord } from '../../core/records/heating.ts';
import { statisticsRow, statisticsShape, ZENSUS_REFERENCE_DATE, type EsriStatsBody } from './grid-stats.ts';

/** Layer-0 fields summed per city: buildings by heating energy carrier and by heating type. */
const SUMS = {
  carrier_total: 'Insgesamt_Energietraeger',
  carrier_district: 'Fernwaerme',
  type_total: 'Insgesamt_Heizungsart',
  type_district: 'Fernheizung',
} as const;

const HEATING_SHAPE = statisticsShape(Object.keys(SUMS) as (keyof typeof SUMS)[]);

/** One `outStatistics` query over all cells of the AGS: a single row, so no paging past maxRecordCount. */
export function heatingStatisticsQuery(ags: string) {
  return {
    where: `ags='${ags.replace(/[^0-9]/g, '')}'`,
    outStatistics: JSON.stringify(Object.entries(SUMS).map(([out, field]) => ({ statisticType: 'sum', onStatisticField: field, outStatisticFieldName: out }))),
    f: 'json',
  };
}

const share = (part: number | null, whole: number | null) => (part !== null && whole ? Math.round((part / whole) * 1000) / 10 : null);

/**
 * Esri answers errors with HTTP 200 and an `error` member. Cell values carry the census's
 * cell-key noise and secret cells are null, so sub-counts need not add up to the totals; the
 * shares are taken over the summed totals.
 */
export function parseHeatingStatistics(body: EsriStatsBody): DistrictHeatingRecord | null {
  const a = statisticsRow(body, HEATING_SHAPE, 'Zensus heating statistics');
  const { carrier_total: carrierTotal, type_total: typeTotal, carrier_district: carrierDistrict, type_district: typeDistrict } = a;
  if (!carrierTotal && !typeTotal) return null;
  return {
    census_year: 2022,
    reference_date: ZENSUS_REFERENCE_DATE,
    buildings_by_energy_carrier: carrierTotal,
    buildings_district_heat: carrierDistrict,
    district_heat_share_pct: share(carrierDistrict, carrierTotal),
    buildings_by_heating_type: typeTotal,
    buildings_district_heating_type: typeDistrict,
    district_heating_type_share_pct: share(typeDistrict, typeTotal),
  };
}

/** Sums over the city's 100 m cells (each cell carries the 8-digit AGS of its municipality). */
export const districtHeating: Adapter<DistrictHeatingRecord> = async ({ city, http }) => {
  const data = parseHeatingStatistics(await http.json<EsriStatsBody>('/0/query', { query: heatingStatisticsQuery(city.ags) }));
  if (!data) return { data: null, status: 'no_data', meta: { reason: `no Zensus grid cell with heating data carries AGS ${city.ags}` } };
  return { data, as_of: null };
};
