import type { HistoryBackfill } from '../../core/data-type.ts';
import type { WaterLevelRecord } from '../../core/records/water.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { toBerlinIso } from '../../core/time.ts';

/** PEGELONLINE keeps about a month of raw measurements; this is the span asked for (ISO 8601 period). */
export const BACKFILL_PERIOD = 'P30D';

interface Measurement {
  timestamp?: unknown;
  value?: unknown;
}

/**
 * `water-level`: the nearest gauge's W measurements of the last 30 days (one per 15 minutes), as
 * points of the recorded `value_cm`. The gauge is the first of the answer that started the series
 * (the list is nearest first), so the backfill continues the series the recorder keeps.
 */
export const waterLevelBackfill: HistoryBackfill = async ({ http }, data) => {
  const uuid = (data as WaterLevelRecord[] | null)?.[0]?.uuid;
  if (!uuid) return [];
  const body = await http.json<unknown>('/stations/{uuid}/W/measurements.json', { params: { uuid }, query: { start: BACKFILL_PERIOD } });
  if (!Array.isArray(body)) throw new UpstreamError('parse', 'W measurements are not a list');
  return (body as Measurement[]).flatMap((m) =>
    typeof m?.timestamp === 'string' && typeof m.value === 'number' && Number.isFinite(m.value) && Number.isFinite(Date.parse(m.timestamp))
      ? [{ t: toBerlinIso(m.timestamp), values: { value_cm: m.value } }]
      : [],
  );
};
