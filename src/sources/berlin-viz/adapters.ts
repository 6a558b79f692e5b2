import { distanceKm } from '../../cities/register.ts';
import type { Adapter } from '../../core/data-type.ts';
import { toBerlinIso } from '../../core/time.ts';
import type { RoadEvent } from '../../core/records/roads.ts';
import { parseViz, type VizCollection } from './reports.ts';

/** Berlin's roadworks, closures and disruptions from the VIZ feed (the whole city; no radius filter needed). */
export const berlinTrafficReports: Adapter<RoadEvent[]> = async ({ http, city }) => {
  const events = parseViz(await http.json<VizCollection>('/daten/baustellen_sperrungen_viz.json')).map((e) => ({
    ...e,
    distance_km: e.lat !== null && e.lon !== null ? Math.round(distanceKm(city.lat, city.lon, e.lat, e.lon) * 10) / 10 : null,
  }));
  if (events.length === 0) return { data: null, status: 'no_data', meta: { reason: 'the VIZ feed lists no roadworks, closures or disruptions right now' } };
  const count = (t: RoadEvent['type']) => events.filter((e) => e.type === t).length;
  return {
    data: events,
    as_of: newestStore(events),
    meta: { count: events.length, counts: { roadworks: count('roadworks'), closure: count('closure'), warning: count('warning') } },
  };
};

/** The feed has no header time: its newest `tstore` (when VIZ last stored a report) stands for it. */
function newestStore(events: RoadEvent[]): string | null {
  let newest: number | null = null;
  for (const e of events) {
    const t = typeof e.raw?.tstore === 'string' ? Date.parse(e.raw.tstore) : NaN;
    if (Number.isFinite(t) && (newest === null || t > newest)) newest = t;
  }
  return newest === null ? null : toBerlinIso(newest);
}
