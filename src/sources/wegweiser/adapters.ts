import type { Adapter } from '../../core/data-type.ts';
import type { IndicatorsRecord } from '../../core/records/society.ts';
import { parseStatistics, statisticsOfCity } from './statistics.ts';

/** Wegweiser topics whose indicators make up the key-indicator set (friendlyUrl segments). */
export const WEGWEISER_TOPICS = ['demografische-entwicklung', 'soziale-lage', 'beschaeftigung-arbeitsmarkt'] as const;

/** The region by AGS (region list, cached), then every indicator of the topics for it. */
export const keyIndicators: Adapter<IndicatorsRecord> = async (ctx) => {
  const found = await statisticsOfCity(ctx, WEGWEISER_TOPICS, 'Wegweiser Kommune has no data for this region');
  if ('reason' in found) return { data: null, status: 'no_data', meta: { reason: found.reason } };
  const data = parseStatistics(found.body);
  if (data.indicator_count === 0) return { data: null, status: 'no_data', meta: { reason: 'no indicator has a value for this region' } };
  return { data };
};
