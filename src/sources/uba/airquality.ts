import { UpstreamError } from '../../core/upstream-error.ts';
import { ubaTimeToIso } from './cet.ts';
import { INDEX_LABELS, INDEX_LABELS_EN, POLLUTANT_BY_ID } from './components.ts';

/**
 * airquality/json: `data.{station id}.{start CET} = [end CET, index 0..4, incomplete 0|1,
 * [component id, value, component index, share], ...]`.
 */
export interface AirqualityBody {
  data?: Record<string, Record<string, unknown[]>> | unknown[];
}

export interface AirqualityHour {
  start: string;
  end: string;
  index: number | null;
  index_label: string | null;
  index_label_en: string | null;
  /** Set by UBA whenever not every index component is present (e.g. traffic stations without O3). */
  incomplete: boolean;
  components: { component: string; component_id: number; value: number | null; unit: string | null; index: number | null }[];
}

/** The newest hour of one station (rows are not guaranteed to be in time order). */
export function latestAirquality(body: AirqualityBody, stationId: string): AirqualityHour | null {
  if (!body || typeof body !== 'object' || !('data' in body)) throw new UpstreamError('parse', 'UBA airquality/json without data');
  const data = body.data;
  if (Array.isArray(data) || data === null || data === undefined) return null;
  if (typeof data !== 'object') throw new UpstreamError('parse', 'UBA airquality/json data is not an object');
  const rows = data[stationId] ?? data[String(Number(stationId))];
  if (!rows || typeof rows !== 'object') return null;
  let key: string | null = null;
  let row: (typeof rows)[string] | undefined;
  for (const [start, r] of Object.entries(rows))
    if (Array.isArray(r) && r.length >= 3 && (key === null || start > key)) {
      key = start;
      row = r;
    }
  if (key === null || row === undefined) return null;
  const index = row[1] === null || row[1] === undefined || row[1] === '' ? null : Number(row[1]);
  return {
    start: ubaTimeToIso(key),
    end: ubaTimeToIso(String(row[0])),
    index,
    index_label: index !== null ? (INDEX_LABELS[index] ?? null) : null,
    index_label_en: index !== null ? (INDEX_LABELS_EN[index] ?? null) : null,
    incomplete: Number(row[2]) === 1,
    components: row
      .slice(3)
      .filter(Array.isArray)
      .map((c) => {
        const id = Number(c[0]);
        const p = POLLUTANT_BY_ID.get(id);
        return {
          component: p?.code ?? String(id),
          component_id: id,
          value: c[1] === null || c[1] === undefined || c[1] === '' ? null : Number(c[1]),
          unit: p?.unit ?? null,
          index: c[2] === null || c[2] === undefined ? null : Number(c[2]),
        };
      }),
  };
}
