import type { Store } from '../../core/store.ts';
import { toBerlinIso } from '../../core/time.ts';

/**
 * Departures of a city's stops as requests read them: the finished board the poller stored
 * (board-build.ts), rendered once per poll, of which a request takes its window
 * [now - 2 min, now + 60 min] and optionally one stop.
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

/**
 * A stored board: departures as columns in departure order (times in POSIX seconds), trips
 * as [trip_id, route_id, line, headsign, cancelled] and stops as [stop_id, name, lat, lon].
 */
export interface StoredBoard {
  unplaced: number;
  trips: [string, string | null, string | null, string | null, 0 | 1][];
  stops: [string, string | null, number | null, number | null][];
  t: number[];
  planned: (number | null)[];
  delay: (number | null)[];
  trip: number[];
  stop: number[];
  seq: (number | null)[];
  skipped: number[];
}

export const BOARD_KEY = (city: string) => `transit:departures:${city}`;

export async function readBoard(store: Store, city: string): Promise<StoredBoard | null> {
  const v = await store.get(BOARD_KEY(city));
  return v ? (JSON.parse(v) as StoredBoard) : null;
}

/**
 * A stored board with every departure rendered once, in departure order: a city's requests
 * within one poll take slices of it (poll-cache.ts keeps it per poll), so Berlin's ~20k
 * departures are parsed and formatted once per poll instead of once per request.
 */
export interface RenderedBoard {
  unplaced: number;
  /** Expected departure of each item, POSIX seconds, ascending. */
  t: number[];
  items: DepartureOut[];
  /** The whole-city window of the last second asked: it only moves by the second, and busy boards are asked many times a second. */
  window?: { from: number; to: number; items: DepartureOut[] };
}

export function renderBoard(b: StoredBoard): RenderedBoard {
  const items = new Array<DepartureOut>(b.t.length);
  // The poller writes parallel columns of one length whose `stop`/`trip` entries index `stops`/`trips`.
  for (let n = 0; n < b.t.length; n++) {
    const [stop_id, stop_name, lat, lon] = b.stops[b.stop[n]!]!;
    const [trip_id, route_id, line, headsign, cancelled] = b.trips[b.trip[n]!]!;
    const planned = b.planned[n] ?? null;
    items[n] = {
      stop_id,
      stop_name,
      lat,
      lon,
      trip_id,
      route_id,
      line,
      headsign,
      stop_sequence: b.seq[n] ?? null,
      planned_departure_at: planned === null ? null : toBerlinIso(planned * 1000),
      expected_departure_at: toBerlinIso(b.t[n]! * 1000),
      delay_s: b.delay[n] ?? null,
      cancelled: cancelled === 1,
      skipped: b.skipped[n] === 1,
    };
  }
  return { unplaced: b.unplaced, t: b.t, items };
}

/** First index whose time is >= `s` (the board's times ascend). */
function lowerBound(t: number[], s: number): number {
  let lo = 0,
    hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // mid < hi <= t.length, so t[mid] exists.
    if (t[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The request's own window of a board, optionally of one stop only. */
export function boardWindow(b: RenderedBoard, nowMs: number, stopId?: string): DepartureOut[] {
  const from = lowerBound(b.t, Math.ceil((nowMs - WINDOW_PAST_S * 1000) / 1000));
  const to = lowerBound(b.t, Math.floor((nowMs + WINDOW_AHEAD_S * 1000) / 1000) + 1);
  if (stopId === undefined) {
    if (b.window?.from !== from || b.window.to !== to) b.window = { from, to, items: b.items.slice(from, to) };
    return b.window.items;
  }
  const out: DepartureOut[] = [];
  for (let n = from; n < to; n++) {
    const item = b.items[n];
    if (item?.stop_id === stopId) out.push(item);
  }
  return out;
}
