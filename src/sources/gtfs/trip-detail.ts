import type { RtStopUpdate } from './decode.ts';
import type { StoredTrip } from './rt-index.ts';
import { toBerlinIso } from '../../core/time.ts';
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
  /** Why the trip could not be joined with the schedule; null when it was. */
  unresolved_reason: string | null;
  progress: 'not_started' | 'en_route' | 'at_stop' | 'finished' | 'unknown';
  /** The moment progress, position and delay_s describe: they move on between polls, a copy of the answer does not. */
  progress_at: string;
  position: PositionOut | null;
  stop_updates: StopUpdateOut[];
}

const iso = (ms: number | null) => (ms === null ? null : toBerlinIso(ms));

/** A stop with an expected arrival, departure and position: what the vehicle is placed between. */
interface Located {
  stopId: string | null;
  lat: number;
  lon: number;
  eArrMs: number;
  eDepMs: number;
  arrDelay: number | null;
  depDelay: number | null;
}

/**
 * Everything of a trip's detail that holds until the next poll: the join with the schedule on
 * one service day, rendered. Only progress, position and current delay depend on the moment of
 * the request (detailAt); trip-cache.ts keeps a timeline per trip and poll.
 */
export interface TripTimeline {
  /** The service day the times are placed on, and whether the feed named it (else it was picked near `now`). */
  day: string | null;
  dayFromFeed: boolean;
  /** First and last planned time (GTFS seconds), to pick the service day again. */
  span: [number, number] | null;
  head: Pick<TripDetail, 'trip_id' | 'route_id' | 'line' | 'headsign' | 'service_date' | 'cancelled' | 'unresolved' | 'unresolved_reason'>;
  feedDelay: number | null;
  located: Located[];
  stop_updates: StopUpdateOut[];
}

/**
 * The feed's update for each scheduled stop: by stop_sequence when the update has one, else by
 * stop_id; of several matches the first in feed order wins. Maps keep this linear per trip.
 */
function updatesFor(updates: RtStopUpdate[], times: StaticStopTime[]): (RtStopUpdate | undefined)[] {
  const bySeq = new Map<number, number>(),
    byStop = new Map<string, number>();
  for (const [k, u] of updates.entries()) {
    if (u.seq !== null) {
      if (!bySeq.has(u.seq)) bySeq.set(u.seq, k);
    } else if (u.stop_id !== null && !byStop.has(u.stop_id)) byStop.set(u.stop_id, k);
  }
  return times.map((st) => {
    const a = bySeq.get(st.seq),
      b = st.stop_id === null ? undefined : byStop.get(st.stop_id);
    const k = a === undefined ? b : b === undefined ? a : Math.min(a, b);
    return k === undefined ? undefined : updates[k];
  });
}

function unresolved(t: StoredTrip, reason: string, index: StaticIndex | null): TripTimeline {
  const u = t.update;
  return {
    day: null,
    dayFromFeed: false,
    span: null,
    head: {
      trip_id: u.trip_id,
      route_id: t.route_id,
      line: null,
      headsign: null,
      service_date: isServiceDate(u.start_date) ? `${u.start_date.slice(0, 4)}-${u.start_date.slice(4, 6)}-${u.start_date.slice(6)}` : null,
      cancelled: u.cancelled,
      unresolved: true,
      unresolved_reason: reason,
    },
    feedDelay: t.delay_s,
    located: [],
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
export interface TripSchedule {
  meta: StaticTrip | null;
  times: StaticStopTime[];
}

export function tripSchedule(index: StaticIndex, tripId: string): TripSchedule {
  const meta = index.trip(tripId);
  return { meta, times: meta ? index.stopTimes(tripId) : [] };
}

/** The service day a timeline built at `nowMs` would use; a cached timeline on another day is rebuilt. */
export function timelineDay(tl: TripTimeline, nowMs: number): string | null {
  return tl.dayFromFeed || !tl.span ? tl.day : pickServiceDay(nowMs, tl.span[0], tl.span[1]);
}

/** `schedule` is the trip's join with `index` when the caller already holds it (trip-cache.ts). */
export function tripTimeline(t: StoredTrip, index: StaticIndex | null, nowMs: number, schedule?: TripSchedule): TripTimeline {
  if (!index) return unresolved(t, 'static schedule not indexed yet', index);
  const { meta, times } = schedule ?? tripSchedule(index, t.update.trip_id);
  if (!meta || times.length === 0) return unresolved(t, 'trip not in the static schedule (ids change with each timetable version)', index);

  const planned = times.map((s) => s.arr ?? s.dep).filter((x): x is number => x !== null);
  if (planned.length === 0) return unresolved(t, 'trip has no scheduled times', index);
  const span: [number, number] = [Math.min(...planned), Math.max(...planned)];
  const feedDay = t.update.start_date;
  const dayFromFeed = isServiceDate(feedDay);
  const day = isServiceDate(feedDay) ? feedDay : pickServiceDay(nowMs, span[0], span[1]);

  // Stops before the first update take its delay too: feeds drop the stops a trip has passed,
  // and the schedule alone would put the vehicle back before its last reported stop.
  const matched = updatesFor(t.update.updates, times);
  const firstUpdate = matched.find((u) => u !== undefined);
  let carried: number | null = firstUpdate ? (firstUpdate.arr_delay ?? firstUpdate.dep_delay ?? null) : null;
  const located: Located[] = [];
  const stopUpdates = times.map((st, k): StopUpdateOut => {
    const u = matched[k];
    const pArr = st.arr ?? st.dep,
      pDep = st.dep ?? st.arr;
    const pArrMs = pArr === null ? null : gtfsInstantMs(day, pArr);
    const pDepMs = pDep === null ? null : gtfsInstantMs(day, pDep);
    let arrDelay: number | null = carried,
      depDelay: number | null = carried;
    if (u) {
      arrDelay = u.arr_delay ?? (u.arr_time !== null && pArrMs !== null ? Math.round(u.arr_time - pArrMs / 1000) : null) ?? carried;
      depDelay = u.dep_delay ?? (u.dep_time !== null && pDepMs !== null ? Math.round(u.dep_time - pDepMs / 1000) : null) ?? arrDelay;
      if (u.arr_delay === null && u.arr_time === null) arrDelay = depDelay ?? carried;
    }
    carried = depDelay ?? arrDelay ?? carried;
    const eArrMs = u?.arr_time != null ? u.arr_time * 1000 : pArrMs === null ? null : pArrMs + (arrDelay ?? 0) * 1000;
    const eDepMs = u?.dep_time != null ? u.dep_time * 1000 : pDepMs === null ? null : pDepMs + (depDelay ?? 0) * 1000;
    if (eArrMs !== null && eDepMs !== null && st.lat !== null && st.lon !== null) {
      located.push({ stopId: st.stop_id, lat: st.lat, lon: st.lon, eArrMs, eDepMs, arrDelay, depDelay });
    }
    return {
      stop_sequence: st.seq,
      stop_id: st.stop_id,
      name: st.name,
      lat: st.lat,
      lon: st.lon,
      planned_arrival_at: iso(pArrMs),
      planned_departure_at: iso(pDepMs),
      expected_arrival_at: iso(eArrMs),
      expected_departure_at: iso(eDepMs),
      arrival_delay_s: arrDelay,
      departure_delay_s: depDelay,
      realtime: u !== undefined,
      skipped: u?.skipped ?? false,
    };
  });

  return {
    day,
    dayFromFeed,
    span,
    head: {
      trip_id: t.update.trip_id,
      route_id: t.route_id ?? meta.route_id,
      line: meta.route_short_name ?? meta.trip_short_name,
      headsign: meta.headsign,
      service_date: `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`,
      cancelled: t.update.cancelled,
      unresolved: false,
      unresolved_reason: null,
    },
    feedDelay: t.delay_s,
    located,
    stop_updates: stopUpdates,
  };
}

/** The timeline at the moment `nowMs`: progress, the interpolated position and the delay there. */
export function detailAt(tl: TripTimeline, nowMs: number): TripDetail {
  let progress: TripDetail['progress'] = 'unknown';
  let position: PositionOut | null = null;
  let currentDelay: number | null = null;
  const located = tl.located;
  const first = located[0],
    last = located[located.length - 1];
  if (first && last) {
    if (nowMs < first.eDepMs) {
      progress = 'not_started';
      currentDelay = first.depDelay;
    } else if (nowMs >= last.eArrMs) {
      progress = 'finished';
      currentDelay = last.arrDelay;
    } else {
      for (const [i, r] of located.entries()) {
        if (nowMs >= r.eArrMs && nowMs < r.eDepMs) {
          progress = 'at_stop';
          currentDelay = r.depDelay;
          position = { lat: r.lat, lon: r.lon, estimated: true, method: 'linear_between_stops', from_stop_id: r.stopId, to_stop_id: r.stopId, fraction: 0 };
          break;
        }
        const next = located[i + 1];
        if (next && nowMs >= r.eDepMs && nowMs < next.eArrMs) {
          const span = next.eArrMs - r.eDepMs;
          const f = span > 0 ? (nowMs - r.eDepMs) / span : 0;
          progress = 'en_route';
          currentDelay = next.arrDelay;
          position = {
            lat: round6(r.lat + (next.lat - r.lat) * f),
            lon: round6(r.lon + (next.lon - r.lon) * f),
            estimated: true,
            method: 'linear_between_stops',
            from_stop_id: r.stopId,
            to_stop_id: next.stopId,
            fraction: Math.round(f * 1000) / 1000,
          };
          break;
        }
      }
    }
  }
  const h = tl.head;
  return {
    trip_id: h.trip_id,
    route_id: h.route_id,
    line: h.line,
    headsign: h.headsign,
    service_date: h.service_date,
    cancelled: h.cancelled,
    delay_s: currentDelay ?? tl.feedDelay,
    unresolved: h.unresolved,
    unresolved_reason: h.unresolved_reason,
    progress,
    progress_at: toBerlinIso(nowMs),
    position,
    stop_updates: tl.stop_updates,
  };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
