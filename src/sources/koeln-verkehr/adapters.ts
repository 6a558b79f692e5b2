import type { Adapter } from '../../core/data-type.ts';
import type { FlowSegment, FlowState, TrafficFlowRecord } from '../../core/records/roads.ts';
import { parseStrecken, type QueryAnswer } from './strecke.ts';

/** Non-free segments listed at most (the same cap as Hamburg's view of the type). */
export const SEGMENT_CAP = 250;

/** Worst first, as for Hamburg; segments of an unknown state last (not known to be free-flowing). */
const ORDER: Record<FlowState, number> = { congested: 0, slow: 1, dense: 2, free: 3 };
const rank = (s: FlowSegment) => (s.state === null ? 4 : ORDER[s.state]);

/** Layer 1 "Strecke" of the city's traffic calendar map, in the shared traffic-flow view. */
export const koelnTrafficFlow: Adapter<TrafficFlowRecord> = async (ctx) => {
  const answer = await ctx.http.json<QueryAnswer>('/1/query', {
    query: { where: '1=1', outFields: '*', returnGeometry: true, outSR: 4326, f: 'json' },
  });
  const { segments: all, truncated } = parseStrecken(answer);
  const meta: Record<string, unknown> = { segment_cap: SEGMENT_CAP, feed: 'koeln-verkehr', ...(truncated ? { upstream_truncated: true } : {}) };
  if (all.length === 0) return { data: null, status: 'no_data', meta: { ...meta, reason: 'the traffic map has no segments right now' } };
  const counts = { free: 0, dense: 0, slow: 0, congested: 0 };
  for (const s of all) if (s.state) counts[s.state]++;
  const known = counts.free + counts.dense + counts.slow + counts.congested;
  const unknown = all.length - known;
  const listed = all.filter((s) => s.state !== 'free').sort((a, b) => rank(a) - rank(b));
  const segments = listed.slice(0, SEGMENT_CAP);
  return {
    data: {
      segments_total: all.length,
      counts,
      // Over segments with a known state: an unknown code says nothing about congestion.
      congested_share_pct: known ? Math.round(((counts.slow + counts.congested) / known) * 1000) / 10 : null,
      segments,
      segments_truncated: listed.length > segments.length,
    },
    meta: { ...meta, ...(unknown ? { unknown_state: unknown } : {}) },
  };
};
