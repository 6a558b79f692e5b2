import type { Adapter } from '../../core/data-type.ts';
import type { PopulationDensityRecord } from '../../core/records/society.ts';
import { gridStatisticsQuery, parseGridStatistics, type EsriStatsBody } from './grid-stats.ts';

/** Inhabitants and populated cells of the city's 100 m grid (one outStatistics query by AGS). */
export const populationDensity: Adapter<PopulationDensityRecord> = async ({ city, http }) => {
  const body = await http.json<EsriStatsBody>('/0/query', { query: gridStatisticsQuery(city.ags) });
  const data = parseGridStatistics(body, city.area_km2);
  if (!data) return { data: null, status: 'no_data', meta: { reason: `no populated Zensus grid cell carries AGS ${city.ags}` } };
  return { data };
};
