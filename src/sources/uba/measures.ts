import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { UbaTime, ubaTimeToIso } from './cet.ts';

/** measures/json: `data.{station id}.{start CET} = [component id, scope id, value, end CET, index]`. */
const Row = z.tuple([z.number(), z.number(), z.number().nullable(), UbaTime, z.union([z.number(), z.string()]).nullable()]);
/** An unpublished hour comes as `data: {}` or `data: []`. */
const MeasuresShape = z.looseObject({
  data: z.preprocess((v) => (Array.isArray(v) && v.length === 0 ? {} : v), z.record(z.string(), z.record(UbaTime, Row))),
});

export interface Measurement {
  component_id: number;
  scope_id: number;
  value: number;
  /** Start and end of the averaging period, zoned. */
  start: string;
  end: string;
  index: number | null;
}

/** Station ids are strings in one endpoint and numbers in another: "0513" and "513" are one station. */
export const stationKey = (id: string): string => (/^\d+$/.test(id) ? String(Number(id)) : id);

/** The newest non-null value among one station's rows (rows are not guaranteed to be in time order). */
function newestValue(rows: Record<string, z.output<typeof Row>>): Measurement | null {
  let best: { key: string; row: z.output<typeof Row>; value: number } | null = null;
  for (const [start, row] of Object.entries(rows)) {
    const value = row[2];
    if (value !== null && (!best || start > best.key)) best = { key: start, row, value };
  }
  if (!best) return null;
  const [component, scope, , end, index] = best.row;
  const value = best.value;
  return {
    component_id: component,
    scope_id: scope,
    value,
    start: ubaTimeToIso(best.key),
    end: ubaTimeToIso(end),
    index: index === null || index === '' ? null : Number(index),
  };
}

/**
 * Per station (keyed by `stationKey`) the newest non-null value of an answer without `station`,
 * which lists every station that measures the component. Stations without a value are left out.
 */
export function latestPerStation(body: unknown): Record<string, Measurement> {
  const { data } = shaped(MeasuresShape, body, 'UBA measures');
  const out: Record<string, Measurement> = {};
  for (const [id, rows] of Object.entries(data)) {
    const m = newestValue(rows);
    if (m) out[stationKey(id)] = m;
  }
  return out;
}
