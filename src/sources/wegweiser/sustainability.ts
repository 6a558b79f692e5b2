import type { Adapter } from '../../core/data-type.ts';
import type { SustainabilityRecord } from '../../core/records/sustainability.ts';
import { checkedStatistics, statisticsOfCity } from './statistics.ts';

/** The Wegweiser topic that carries the SDG indicators of the SDG-Portal for municipalities. */
export const SDG_TOPIC = 'nachhaltigkeit';

/** Every indicator of the topic with its latest year that has a value. */
export function parseSdgIndicators(answer: unknown): SustainabilityRecord {
  const body = checkedStatistics(answer);
  const d = body.data;
  const region = d.regions?.[0];
  return {
    region: region ? { name: region.name ?? null, ags: region.gkz ?? null, ars: region.ars ?? null } : null,
    data_source: typeof d.source === 'string' ? d.source : null,
    indicators: d.indicators.map((ind) => {
      const values = ind.regionYearValues[0] ?? [];
      let i = Math.min(values.length, body.years.length) - 1;
      while (i >= 0 && typeof values[i] !== 'number') i--;
      return {
        id: ind.friendlyUrl ?? (ind.id != null ? String(ind.id) : null),
        label: ind.name ?? null,
        unit: ind.unit ?? null,
        value: i >= 0 ? (values[i] as number) : null,
        year: i >= 0 ? (body.years[i] ?? null) : null,
        sdg_goal: null,
        level: null,
      };
    }),
  };
}

/** `sustainability`: the SDG indicators of Wegweiser Kommune's topic "Nachhaltigkeit" for the city (found by AGS). */
export const sdgIndicators: Adapter<SustainabilityRecord> = async (ctx) => {
  const found = await statisticsOfCity(ctx, [SDG_TOPIC], 'Wegweiser Kommune has no SDG indicators for this region');
  if ('reason' in found) return { data: null, status: 'no_data', meta: { reason: found.reason } };
  const data = parseSdgIndicators(found.body);
  const withValue = data.indicators.filter((i) => i.value !== null);
  if (withValue.length === 0) return { data: null, status: 'no_data', meta: { reason: 'no SDG indicator has a value for this region' } };
  const newest = Math.max(...withValue.map((i) => i.year ?? 0));
  return { data, meta: { indicators_with_value: withValue.length, newest_year: newest } };
};
