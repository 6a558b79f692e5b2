import { UpstreamError } from '../../core/upstream-error.ts';
import { FormatDriftError } from '../../core/format-drift-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

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

const lowerKeys = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase(), x])) : v;

/**
 * An `outStatistics` answer over all cells of an AGS is one row, also when no cell matches (then its sums are null):
 * `features[0].attributes` with every out-field present, a number or null. Out-field names come back in any letter
 * case from some ArcGIS servers, so they are compared lower-cased. Built once per query kind.
 */
export function statisticsShape<K extends string>(fields: readonly K[]) {
  const row = z.looseObject(Object.fromEntries(fields.map((f) => [f, z.number().nullable()])) as Record<K, z.ZodNullable<z.ZodNumber>>);
  return z.looseObject({ features: z.array(z.looseObject({ attributes: z.preprocess(lowerKeys, row) })).min(1) });
}

/** The statistics row of an answer checked against its shape; Esri answers errors with HTTP 200 and an `error` member. */
export function statisticsRow<K extends string>(body: EsriStatsBody, shape: ReturnType<typeof statisticsShape<K>>, answer: string): Record<K, number | null> {
  if (body && typeof body === 'object' && body.error)
    throw new UpstreamError('parse', `Zensus grid query failed: ${body.error.code ?? ''} ${body.error.message ?? ''}`.trim());
  return shaped(shape, body, answer).features[0]!.attributes as Record<K, number | null>;
}

const GRID_SHAPE = statisticsShape(['population', 'cells']);

/**
 * Esri answers errors with HTTP 200 and an `error` member. Cells without inhabitants are absent
 * from the layer, so the cell count is the populated area, not the city's area.
 */
export function parseGridStatistics(body: EsriStatsBody, areaKm2: number | null) {
  const { population, cells } = statisticsRow(body, GRID_SHAPE, 'Zensus grid statistics');
  if (!population) {
    // A sum over no cell is null; one over populated cells is not.
    if (cells)
      throw new FormatDriftError(
        `Zensus grid statistics $.features[0].attributes.population: no sum over ${cells} cells`,
        '$.features[0].attributes.population',
      );
    return null;
  }
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
