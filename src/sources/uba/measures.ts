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

/** Station ids are strings in one endpoint and numbers in another: "0513" and "513" are one station. */
export const stationKey = (id: string): string => (/^\d+$/.test(id) ? String(Number(id)) : id);

function stationRows(body: MeasuresBody): Record<string, Record<string, unknown[]>> | null {
  if (!body || typeof body !== 'object' || !('data' in body)) throw new UpstreamError('parse', 'UBA measures/json without data');
  const data = body.data;
  if (Array.isArray(data) || data === null || data === undefined) return null;
  if (typeof data !== 'object') throw new UpstreamError('parse', 'UBA measures/json data is not an object');
  return data;
}

/**
 * The newest non-null value among one station's rows. Rows are not guaranteed to be in time
 * order, so the maximum start key wins; an unpublished hour comes as `data: {}` (or `[]`).
 */
function newestValue(rows: unknown): Measurement | null {
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

/**
 * Per station (keyed by `stationKey`) the newest non-null value of an answer without `station`,
 * which lists every station that measures the component. Stations without a value are left out.
 */
export function latestPerStation(body: MeasuresBody): Record<string, Measurement> {
  const data = stationRows(body);
  const out: Record<string, Measurement> = {};
  if (!data) return out;
  for (const [id, rows] of Object.entries(data)) {
    const m = newestValue(rows);
    if (m) out[stationKey(id)] = m;
  }
  return out;
}
