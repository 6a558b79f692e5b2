import { UpstreamError } from '../../core/upstream-error.ts';
import { ubaTimeToIso } from './cet.ts';

/** measures/json: `data.{station id}.{start CET} = [component id, scope id, value, end CET, index]`. */
export interface MeasuresBody {
  data?: Record<string, Record<string, unknown[]>> | unknown[];
}

export interface Measurement {
  component_id: number;
  scope_id: number;
  value: number;
  /** Start and end of the averaging period, zoned. */
  start: string;
  end: string;
  index: number | null;
}

/**
 * The newest non-null value of one station. Rows are not guaranteed to be in time order, so
 * the maximum start key wins; an unpublished hour comes as `data: {}` (or `[]`).
 */
export function latestMeasurement(body: MeasuresBody, stationId: string): Measurement | null {
  if (!body || typeof body !== 'object' || !('data' in body)) throw new UpstreamError('parse', 'UBA measures/json without data');
  const data = body.data;
  if (Array.isArray(data) || data === null || data === undefined) return null;
  if (typeof data !== 'object') throw new UpstreamError('parse', 'UBA measures/json data is not an object');
  const rows = data[stationId] ?? data[String(Number(stationId))];
  if (!rows || typeof rows !== 'object') return null;
  let best: { key: string; row: unknown[] } | null = null;
  for (const [start, row] of Object.entries(rows)) {
    if (!Array.isArray(row) || row.length < 4) continue;
    const v = row[2];
    if (v === null || v === undefined || v === '' || !Number.isFinite(Number(v))) continue;
    if (!best || start > best.key) best = { key: start, row };
  }
  if (!best) return null;
  const [component, scope, value, end, index] = best.row;
  return {
    component_id: Number(component),
    scope_id: Number(scope),
    value: Number(value),
    start: ubaTimeToIso(best.key),
    end: ubaTimeToIso(String(end)),
    index: index === null || index === undefined || index === '' ? null : Number(index),
  };
}
