import { UpstreamError } from '../../core/upstream-error.ts';

/** Census reference date (Stichtag) of every Zensus 2022 figure. */
export const ZENSUS_REFERENCE_DATE = '2022-05-15';
/** One cell of layer 0 is 100 m x 100 m. */
const CELL_KM2 = 0.01;

/** `outStatistics` for layer 0: inhabitants summed over the city's cells, and the cell count. */
export function gridStatisticsQuery(ags: string) {
  return {
    where: `ags='${ags.replace(/[^0-9]/g, '')}'`,
    outStatistics: JSON.stringify([
      { statisticType: 'sum', onStatisticField: 'Einwohner', outStatisticFieldName: 'population' },
      { statisticType: 'count', onStatisticField: 'OBJECTID', outStatisticFieldName: 'cells' },
    ]),
    f: 'json',
  };
}

export interface EsriStatsBody {
  features?: { attributes?: Record<string, unknown> }[];
  error?: { code?: number; message?: string };
}

/** A numeric attribute of an ArcGIS statistics answer by its out-field name, in any letter case. */
export function attr(a: Record<string, unknown>, name: string): number | null {
  const key = Object.keys(a).find((k) => k.toLowerCase() === name);
  const v = key ? a[key] : null;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * Esri answers errors with HTTP 200 and an `error` member. Cells without inhabitants are absent
 * from the layer, so the cell count is the populated area, not the city's area.
 */
export function parseGridStatistics(body: EsriStatsBody, areaKm2: number | null) {
  if (body?.error) throw new UpstreamError('parse', `Zensus grid query failed: ${body.error.code ?? ''} ${body.error.message ?? ''}`.trim());
  if (!Array.isArray(body?.features)) throw new UpstreamError('parse', 'Zensus grid statistics without features');
  const a = body.features[0]?.attributes ?? {};
  const population = attr(a, 'population');
  const cells = attr(a, 'cells');
  if (!population) return null;
  const populatedArea = cells ? round(cells * CELL_KM2, 2) : null;
  return {
    population_census: population,
    reference_date: ZENSUS_REFERENCE_DATE,
    area_km2: areaKm2,
    density_per_km2: areaKm2 ? round(population / areaKm2, 1) : null,
    populated_cells: cells,
    populated_area_km2: populatedArea,
    density_per_populated_km2: populatedArea ? round(population / populatedArea, 1) : null,
    grid: '100m',
  };
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
