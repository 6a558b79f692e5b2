import type { Adapter } from '../../core/data-type.ts';
import type { TrafficFlowRecord, TrafficSituationRecord } from '../../core/records/roads.ts';
import { SEGMENT_CAP, snapshot } from './verkehrslage.ts';

/** Counts per state class and the congested segments, in the feed's own class names. */
export const trafficSituation: Adapter<TrafficSituationRecord> = async (ctx) => {
  const { pages, asOf } = await snapshot(ctx);
  const total = pages.fliessend.matched + pages.dicht.matched + pages['zäh'].matched + pages.gestaut.matched;
  if (total === 0) return { data: null, status: 'no_data', as_of: asOf, meta: { reason: 'the traffic situation map has no segments right now' } };
  return {
    data: {
      segments_total: total,
      by_state: { fliessend: pages.fliessend.matched, dicht: pages.dicht.matched, zaeh: pages['zäh'].matched, gestaut: pages.gestaut.matched },
      congested: pages.gestaut.segments,
      congested_truncated: pages.gestaut.matched > pages.gestaut.segments.length,
    },
    as_of: asOf,
    meta: { segment_cap: SEGMENT_CAP },
  };
};

/** The shared traffic-flow view: counts in the common vocabulary and every non-free segment, worst first. */
export const trafficFlow: Adapter<TrafficFlowRecord> = async (ctx) => {
  const { pages, asOf } = await snapshot(ctx);
  const counts = { free: pages.fliessend.matched, dense: pages.dicht.matched, slow: pages['zäh'].matched, congested: pages.gestaut.matched };
  const total = counts.free + counts.dense + counts.slow + counts.congested;
  if (total === 0) return { data: null, status: 'no_data', as_of: asOf, meta: { reason: 'the traffic situation map has no segments right now' } };
  const all = [...pages.gestaut.segments, ...pages['zäh'].segments, ...pages.dicht.segments];
  const segments = all.slice(0, SEGMENT_CAP);
  return {
    data: {
      segments_total: total,
      counts,
      congested_share_pct: Math.round(((counts.slow + counts.congested) / total) * 1000) / 10,
      segments,
      segments_truncated: counts.dense + counts.slow + counts.congested > segments.length,
    },
    as_of: asOf,
    meta: { segment_cap: SEGMENT_CAP, feed: 'hamburg-verkehrslage' },
  };
};
