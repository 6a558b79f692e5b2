import type { RtStopUpdate } from './decode.ts';
import type { StoredTrip } from './rt-index.ts';
import { toBerlinIso } from '../../http/time.ts';
import { gtfsInstantMs, isServiceDate, pickServiceDay } from './service-time.ts';
import type { StaticIndex, StaticStopTime, StaticTrip } from './static-index.ts';

/**
 * One trip joined with its schedule: planned times from the static GTFS, realtime delays
 * propagated downstream (GTFS-RT: a delay holds until the next update), and, as the feed has
 * no vehicle positions, a position interpolated linearly between the previous and the next
 * stop by expected times, flagged `estimated`.
 */
export interface StopUpdateOut {
  stop_sequence: number | null;
  stop_id: string | null;
  name: string | null;
  lat: number | null;
  lon: number | null;
  planned_arrival_at: string | null;
  planned_departure_at: string | null;
  expected_arrival_at: string | null;
  expected_departure_at: string | null;
  arrival_delay_s: number | null;
  departure_delay_s: number | null;
  /** True when the feed carried an update for this stop (not only a propagated delay). */
  realtime: boolean;
  skipped: boolean;
}

export interface PositionOut {
  lat: number;
  lon: number;
  estimated: true;
  method: 'linear_between_stops';
  from_stop_id: string | null;
  to_stop_id: string | null;
  /** Share of the way from the previous to the next stop, 0..1. */
  fraction: number;
}

export interface TripDetail {
  trip_id: string;
  route_id: string | null;
  line: string | null;
  headsign: string | null;
  service_date: string | null;
  cancelled: boolean;
  delay_s: number | null;
  unresolved: boolean;
  unresolved_reason?: string;
  progress: 'not_started' | 'en_route' | 'at_stop' | 'finished' | 'unknown';
  position: PositionOut | null;
  stop_updates: StopUpdateOut[];
}

const iso = (ms: number | null) => (ms === null ? null : toBerlinIso(ms));

/**
 * The feed's update for each scheduled stop: by stop_sequence when the update has one, else by
 * stop_id; of several matches the first in feed order wins. Maps keep this linear per trip.
 */
function updatesFor(updates: RtStopUpdate[], times: StaticStopTime[]): (RtStopUpdate | undefined)[] {
  const bySeq = new Map<number, number>(), byStop = new Map<string, number>();
  for (let k = 0; k < updates.length; k++) {
    const u = updates[k];
    if (u.seq !== null) { if (!bySeq.has(u.seq)) bySeq.set(u.seq, k); }
    else if (u.stop_id !== null && !byStop.has(u.stop_id)) byStop.set(u.stop_id, k);
  }
  return times.map((st) => {
    const a = bySeq.get(st.seq), b = st.stop_id === null ? undefined : byStop.get(st.stop_id);
    const k = a === undefined ? b : b === undefined ? a : Math.min(a, b);
    return k === undefined ? undefined : updates[k];
  });
}

function unresolved(t: StoredTrip, reason: string, index: StaticIndex | null): TripDetail {
  const u = t.update;
  return {
    trip_id: u.trip_id,
    route_id: t.route_id,
    line: null,
    headsign: null,
    service_date: isServiceDate(u.start_date) ? `${u.start_date.slice(0, 4)}-${u.start_date.slice(4, 6)}-${u.start_date.slice(6)}` : null,
    cancelled: u.cancelled,
    delay_s: t.delay_s,
    unresolved: true,
    unresolved_reason: reason,
    progress: 'unknown',
    position: null,
    stop_updates: u.updates.map((x) => {
      const stop = x.stop_id && index ? index.stop(x.stop_id) : null;
      return {
        stop_sequence: x.seq,
        stop_id: x.stop_id,
        name: stop?.name ?? null,
        lat: stop?.lat ?? null,
        lon: stop?.lon ?? null,
        planned_arrival_at: null,
        planned_departure_at: null,
        expected_arrival_at: iso(x.arr_time === null ? null : x.arr_time * 1000),
        expected_departure_at: iso(x.dep_time === null ? null : x.dep_time * 1000),
        arrival_delay_s: x.arr_delay,
        departure_delay_s: x.dep_delay,
        realtime: true,
        skipped: x.skipped,
      };
    }),
  };
}

/** A trip's static side: its trips.txt row and its stop times with stop names and positions. */
export interface TripSchedule { meta: StaticTrip | null; times: StaticStopTime[] }

export function tripSchedule(index: StaticIndex, tripId: string): TripSchedule {
  const meta = index.trip(tripId);
  return { meta, times: meta ? index.stopTimes(tripId) : [] };
}

/** `schedule` is the trip's join with `index` when the caller already holds it (trip-cache.ts). */
export function tripDetail(t: StoredTrip, index: StaticIndex | null, nowMs: number, schedule?: TripSchedule): TripDetail {
  if (!index) return unresolved(t, 'static schedule not indexed yet', index);
  const { meta, times } = schedule ?? tripSchedule(index, t.update.trip_id);
  if (!meta || times.length === 0) return unresolved(t, 'trip not in the static schedule (ids change with each timetable version)', index);

  const planned = times.map((s) => s.arr ?? s.dep).filter((x): x is number => x !== null);
  if (planned.length === 0) return unresolved(t, 'trip has no scheduled times', index);
  const day = isServiceDate(t.update.start_date) ? t.update.start_date : pickServiceDay(nowMs, Math.min(...planned), Math.max(...planned));

  // Stops before the first update take its delay too: feeds drop the stops a trip has passed,
  // and the schedule alone would put the vehicle back before its last reported stop.
  const matched = updatesFor(t.update.updates, times);
  const firstUpdate = matched.find((u) => u !== undefined);
  let carried: number | null = firstUpdate ? firstUpdate.arr_delay ?? firstUpdate.dep_delay ?? null : null;
  const rows = times.map((st, k) => {
    const u = matched[k];
    const pArr = st.arr ?? st.dep, pDep = st.dep ?? st.arr;
    const pArrMs = pArr === null ? null : gtfsInstantMs(day, pArr);
    const pDepMs = pDep === null ? null : gtfsInstantMs(day, pDep);
    let arrDelay: number | null = carried, depDelay: number | null = carried;
    if (u) {
      arrDelay = u.arr_delay ?? (u.arr_time !== null && pArrMs !== null ? Math.round(u.arr_time - pArrMs / 1000) : null) ?? carried;
      depDelay = u.dep_delay ?? (u.dep_time !== null && pDepMs !== null ? Math.round(u.dep_time - pDepMs / 1000) : null) ?? arrDelay;
      if (u.arr_delay === null && u.arr_time === null) arrDelay = depDelay ?? carried;
    }
    carried = depDelay ?? arrDelay ?? carried;
    const eArrMs = u?.arr_time != null ? u.arr_time * 1000 : pArrMs === null ? null : pArrMs + (arrDelay ?? 0) * 1000;
    const eDepMs = u?.dep_time != null ? u.dep_time * 1000 : pDepMs === null ? null : pDepMs + (depDelay ?? 0) * 1000;
    return { st, u, pArrMs, pDepMs, eArrMs, eDepMs, arrDelay, depDelay };
  });

  let progress: TripDetail['progress'] = 'unknown';
  let position: PositionOut | null = null;
  let currentDelay: number | null = null;
  const located = rows.filter((r) => r.eArrMs !== null && r.eDepMs !== null && r.st.lat !== null && r.st.lon !== null);
  if (located.length > 0) {
    const first = located[0], last = located[located.length - 1];
    if (nowMs < first.eDepMs!) {
      progress = 'not_started';
      currentDelay = first.depDelay;
    } else if (nowMs >= last.eArrMs!) {
      progress = 'finished';
      currentDelay = last.arrDelay;
    } else {
      for (let i = 0; i < located.length; i++) {
        const r = located[i];
        if (nowMs >= r.eArrMs! && nowMs < r.eDepMs!) {
          progress = 'at_stop';
          currentDelay = r.depDelay;
          position = { lat: r.st.lat!, lon: r.st.lon!, estimated: true, method: 'linear_between_stops', from_stop_id: r.st.stop_id, to_stop_id: r.st.stop_id, fraction: 0 };
          break;
        }
        const next = located[i + 1];
        if (next && nowMs >= r.eDepMs! && nowMs < next.eArrMs!) {
          const span = next.eArrMs! - r.eDepMs!;
          const f = span > 0 ? (nowMs - r.eDepMs!) / span : 0;
          progress = 'en_route';
          currentDelay = next.arrDelay;
          position = {
            lat: round6(r.st.lat! + (next.st.lat! - r.st.lat!) * f),
            lon: round6(r.st.lon! + (next.st.lon! - r.st.lon!) * f),
            estimated: true,
            method: 'linear_between_stops',
            from_stop_id: r.st.stop_id,
            to_stop_id: next.st.stop_id,
            fraction: Math.round(f * 1000) / 1000,
          };
          break;
        }
      }
    }
  }

  return {
    trip_id: t.update.trip_id,
    route_id: t.route_id ?? meta.route_id,
    line: meta.route_short_name ?? meta.trip_short_name,
    headsign: meta.headsign,
    service_date: `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`,
    cancelled: t.update.cancelled,
    delay_s: currentDelay ?? t.delay_s,
    unresolved: false,
    progress,
    position,
    stop_updates: rows.map((r) => ({
      stop_sequence: r.st.seq,
      stop_id: r.st.stop_id,
      name: r.st.name,
      lat: r.st.lat,
      lon: r.st.lon,
      planned_arrival_at: iso(r.pArrMs),
      planned_departure_at: iso(r.pDepMs),
      expected_arrival_at: iso(r.eArrMs),
      expected_departure_at: iso(r.eDepMs),
      arrival_delay_s: r.arrDelay,
      departure_delay_s: r.depDelay,
      realtime: r.u !== undefined,
      skipped: r.u?.skipped ?? false,
    })),
  };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
