import { boardCalls, type CityBoard } from './rt-index.ts';
import { berlinIso, gtfsInstantMs, isServiceDate, pickServiceDay } from './service-time.ts';
import type { StaticIndex, StaticTrip } from './static-index.ts';

/**
 * Departures of a city's stops from the poller's board: each realtime stop call is placed in
 * time through the static schedule (the gtfs.de feed mostly carries delays, not times), then
 * kept when its expected departure falls in [now - 2 min, now + 60 min]. Calls that can be
 * placed neither by an absolute time nor by the schedule are counted, not guessed.
 */
export const WINDOW_PAST_S = 120;
export const WINDOW_AHEAD_S = 3600;

export interface DepartureOut {
  stop_id: string;
  stop_name: string | null;
  lat: number | null;
  lon: number | null;
  trip_id: string;
  route_id: string | null;
  line: string | null;
  headsign: string | null;
  stop_sequence: number | null;
  planned_departure_at: string | null;
  expected_departure_at: string;
  delay_s: number | null;
  cancelled: boolean;
  skipped: boolean;
}

export interface DeparturesResult {
  departures: DepartureOut[];
  unplaced_calls: number;
}

export function cityDepartures(board: CityBoard, index: StaticIndex | null, nowMs: number, stopId?: string): DeparturesResult {
  // Placing a call needs one schedule row; trip and stop names are looked up only for the
  // calls that fall in the window.
  const trips = new Map<string, StaticTrip | null>();
  const tripOf = (id: string) => {
    let t = trips.get(id);
    if (t === undefined) trips.set(id, (t = index?.trip(id) ?? null));
    return t;
  };
  const stops = new Map<string, { name: string | null; lat: number | null; lon: number | null }>();
  const stopOf = (id: string) => {
    let s = stops.get(id);
    if (!s) stops.set(id, (s = index?.stop(id) ?? { name: null, lat: null, lon: null }));
    return s;
  };

  const out: (DepartureOut & { sort: number })[] = [];
  let unplaced = 0;
  for (const c of boardCalls(board, stopId)) {
    const st = c.seq !== null && index ? index.stopTime(c.trip_id, c.seq) : null;
    // A trip's last stop has no departure worth listing.
    if (st && st.dep === null && st.arr !== null && c.dep_delay === null && c.dep_time === null) continue;
    const plannedS = st ? st.dep ?? st.arr : null;
    let plannedMs: number | null = null;
    if (plannedS !== null) {
      const day = isServiceDate(c.start_date) ? c.start_date : pickServiceDay(nowMs, plannedS, plannedS);
      plannedMs = gtfsInstantMs(day, plannedS);
    }
    const delay = c.dep_delay ?? c.arr_delay ?? (c.dep_time !== null && plannedMs !== null ? Math.round(c.dep_time - plannedMs / 1000) : null);
    const expectedMs = c.dep_time !== null ? c.dep_time * 1000 : plannedMs !== null ? plannedMs + (delay ?? 0) * 1000 : null;
    if (expectedMs === null) { unplaced++; continue; }
    if (expectedMs < nowMs - WINDOW_PAST_S * 1000 || expectedMs > nowMs + WINDOW_AHEAD_S * 1000) continue;
    const stop = stopOf(c.stop_id);
    const trip = tripOf(c.trip_id);
    out.push({
      sort: expectedMs,
      stop_id: c.stop_id,
      stop_name: stop.name,
      lat: stop.lat,
      lon: stop.lon,
      trip_id: c.trip_id,
      route_id: c.route_id ?? trip?.route_id ?? null,
      line: trip?.route_short_name ?? trip?.trip_short_name ?? null,
      headsign: trip?.headsign ?? null,
      stop_sequence: c.seq,
      planned_departure_at: plannedMs === null ? null : berlinIso(plannedMs),
      expected_departure_at: berlinIso(expectedMs),
      delay_s: delay,
      cancelled: c.cancelled,
      skipped: c.skipped,
    });
  }
  out.sort((a, b) => a.sort - b.sort || a.stop_id.localeCompare(b.stop_id));
  return { departures: out.map(({ sort: _, ...d }) => d), unplaced_calls: unplaced };
}
