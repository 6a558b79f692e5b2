import { type IntColumns, NONE } from './columns.ts';
import { gtfsInstantMs, isServiceDate, pickServiceDay } from './service-time.ts';
import { MISSING, type PollSchedule } from './schedule-carry.ts';
import { WINDOW_AHEAD_S, WINDOW_PAST_S } from './board-read.ts';

/**
 * Departures of a city's stops, computed by the poller once per poll and stored finished: each
 * realtime stop call is placed in time through the static schedule (the gtfs.de feed mostly
 * carries delays, not times) and kept when its expected departure falls in the request window
 * (board-read.ts) or up to one TTL further ahead, so the board serves until it expires. Calls
 * that can be placed neither by an absolute time nor by the schedule are counted, not guessed.
 */

/** What the poller kept of one feed: per trip (by ordinal) and per stop call in a register city. */
export interface BoardInput {
  nowMs: number;
  /** The board reaches this far past the request window, so it serves until it expires. */
  aheadExtraS: number;
  /** Times in `calls` are relative to this (POSIX seconds). */
  baseS: number;
  tripId: string[];
  tripRoute: (string | null)[];
  tripStart: (string | null)[];
  tripCancelled: (i: number) => boolean;
  /** trip ordinal, seq, stop ordinal, arr delay, arr time - base, dep delay, dep time - base, skipped (NONE = absent). */
  calls: IntColumns;
  stopIds: string[];
  stopCity: string[];
  /** Planned times and names, carried over from the last poll where it saw the trip. */
  schedule: PollSchedule;
  pause: () => Promise<void>;
}

const v = (x: number) => (x === NONE ? null : x);

/**
 * The finished board of every city with calls, one city at a time (so only one board is held):
 * `{"unplaced": n, "t": [expected departure, POSIX s, ascending], "items": [DepartureOut, ...]}`.
 */
export async function* cityBoards(o: BoardInput): AsyncGenerator<[city: string, board: string]> {
  const { calls, nowMs } = o;
  const planned = await o.schedule.plannedTimes(calls, o.pause);
  const fromMs = nowMs - WINDOW_PAST_S * 1000,
    toMs = nowMs + (WINDOW_AHEAD_S + o.aheadExtraS) * 1000;

  // Counting sort of the calls by city. Indexes below are in range by construction (rows < calls.length,
  // stop and trip ordinals < stopIds/tripId length, city numbers < cityNo.size), hence the `!`s.
  const cityNo = new Map<string, number>();
  const cityOfRow = new Int32Array(calls.length);
  for (let r = 0; r < calls.length; r++) {
    const slug = o.stopCity[calls.get(r, 2)]!;
    let c = cityNo.get(slug);
    if (c === undefined) cityNo.set(slug, (c = cityNo.size));
    cityOfRow[r] = c;
  }
  const offsets = new Int32Array(cityNo.size + 1);
  for (let r = 0; r < calls.length; r++) offsets[cityOfRow[r]! + 1]!++;
  for (let c = 0; c < cityNo.size; c++) offsets[c + 1]! += offsets[c]!;
  const order = new Int32Array(calls.length);
  const fill = offsets.slice(0, cityNo.size);
  for (let r = 0; r < calls.length; r++) order[fill[cityOfRow[r]!]!++] = r;

  const q = (x: string | null) => (x === null ? 'null' : JSON.stringify(x));
  const list = (a: ArrayLike<number>) => `[${Array.prototype.join.call(a, ',')}]`;
  const localTrip = new Int32Array(o.tripId.length).fill(-1),
    localStop = new Int32Array(o.stopIds.length).fill(-1);
  for (const [slug, c] of cityNo) {
    // Kept calls as parallel typed columns: a big city keeps tens of thousands per poll.
    const size = offsets[c + 1]! - offsets[c]!;
    const keptRow = new Int32Array(size),
      expected = new Float64Array(size),
      plannedAt = new Float64Array(size),
      delays = new Int32Array(size);
    let kept = 0,
      unplaced = 0;
    for (let k = offsets[c]!; k < offsets[c + 1]!; k++) {
      const r = order[k]!;
      const i = calls.get(r, 0);
      const pa = planned.arr[r]!,
        pd = planned.dep[r]!;
      const depDelay = v(calls.get(r, 5)),
        arrDelay = v(calls.get(r, 3));
      const depTime = calls.get(r, 6) === NONE ? null : calls.get(r, 6) + o.baseS;
      // A trip's last stop has no departure worth listing.
      if (pa !== MISSING && pd === NONE && pa !== NONE && depDelay === null && depTime === null) continue;
      const plannedS = pa === MISSING ? null : pd !== NONE ? pd : pa !== NONE ? pa : null;
      let plannedMs: number | null = null;
      if (plannedS !== null) {
        const start = o.tripStart[i] ?? null;
        plannedMs = gtfsInstantMs(isServiceDate(start) ? start : pickServiceDay(nowMs, plannedS, plannedS), plannedS);
      }
      const delay = depDelay ?? arrDelay ?? (depTime !== null && plannedMs !== null ? Math.round(depTime - plannedMs / 1000) : null);
      const expectedMs = depTime !== null ? depTime * 1000 : plannedMs !== null ? plannedMs + (delay ?? 0) * 1000 : null;
      if (expectedMs === null) {
        unplaced++;
        continue;
      }
      if (expectedMs < fromMs || expectedMs > toMs) continue;
      keptRow[kept] = r;
      expected[kept] = expectedMs / 1000;
      plannedAt[kept] = plannedMs === null ? NaN : plannedMs / 1000;
      delays[kept++] = delay ?? NONE;
    }
    const stopKey = new Int32Array(kept);
    const tripsKept: number[] = [],
      stopsKept: number[] = [];
    for (let k = 0; k < kept; k++) {
      const i = calls.get(keptRow[k]!, 0),
        st = calls.get(keptRow[k]!, 2);
      if (localTrip[i]! < 0) {
        localTrip[i] = tripsKept.length;
        tripsKept.push(i);
      }
      if (localStop[st]! < 0) {
        localStop[st] = stopsKept.length;
        stopsKept.push(st);
      }
      stopKey[k] = st;
    }
    const rank = Int32Array.from({ length: kept }, (_, k) => k);
    const ids = o.stopIds;
    rank.sort((a, b) => {
      const sa = ids[stopKey[a]!]!,
        sb = ids[stopKey[b]!]!;
      return expected[a]! - expected[b]! || (sa < sb ? -1 : sa > sb ? 1 : 0);
    });
    o.schedule.loadTrips(tripsKept);
    o.schedule.loadStops(stopsKept);
    // Columns in departure order, trips and stops once each: a tenth of the size of records.
    const t = new Float64Array(kept),
      p: (number | null)[] = new Array(kept),
      d: (number | null)[] = new Array(kept);
    const tripCol = new Int32Array(kept),
      stopCol = new Int32Array(kept),
      skipped = new Uint8Array(kept);
    const seq: (number | null)[] = new Array(kept);
    for (let n = 0; n < kept; n++) {
      const k = rank[n]!,
        r = keptRow[k]!;
      t[n] = expected[k]!;
      p[n] = Number.isNaN(plannedAt[k]) ? null : plannedAt[k]!;
      d[n] = v(delays[k]!);
      tripCol[n] = localTrip[calls.get(r, 0)]!;
      stopCol[n] = localStop[calls.get(r, 2)]!;
      seq[n] = v(calls.get(r, 1));
      skipped[n] = calls.get(r, 7) === 1 ? 1 : 0;
    }
    const trips = tripsKept.map((i) => {
      const m = o.schedule.trip(i);
      return `[${q(o.tripId[i] ?? null)},${q(o.tripRoute[i] ?? m.route)},${q(m.line)},${q(m.headsign)},${o.tripCancelled(i) ? 1 : 0}]`;
    });
    const stopRows = stopsKept.map((st) => {
      const m = o.schedule.stop(st);
      return `[${q(o.stopIds[st] ?? null)},${q(m.name)},${m.lat},${m.lon}]`;
    });
    for (const i of tripsKept) localTrip[i] = -1;
    for (const st of stopsKept) localStop[st] = -1;
    yield [
      slug,
      `{"unplaced":${unplaced},"trips":[${trips.join(',')}],"stops":[${stopRows.join(',')}],` +
        `"t":${list(t)},"planned":${JSON.stringify(p)},"delay":${JSON.stringify(d)},"trip":${list(tripCol)},"stop":${list(stopCol)},` +
        `"seq":${JSON.stringify(seq)},"skipped":${list(skipped)}}`,
    ];
    await o.pause();
  }
}
