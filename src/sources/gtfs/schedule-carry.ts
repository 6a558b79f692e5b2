import { getHeapStatistics } from 'node:v8';
import { NONE, type IntColumns } from './columns.ts';
import { BATCH, type PlannedCall, type StaticIndex } from './static-index.ts';

/** Planned time columns: NONE is an empty schedule time, MISSING a call the schedule lacks. */
export const MISSING = NONE + 1;

/** What a poll knows of its trips by ordinal (the position in the poll's trip list). */
interface TripColumns {
  /** Scheduled route_id; undefined until asked. */
  route: (string | null | undefined)[];
  /** 1 once line and headsign are loaded. */
  named: Uint8Array;
  line: (string | null)[];
  headsign: (string | null)[];
}

/** The last poll's trips, kept for the next one: by trip id, with its stop calls' planned times. */
interface Carried extends TripColumns {
  slot: Map<string, number>;
  /** The trip's calls in seq/arr/dep: rows first[slot] .. first[slot] + count[slot]. */
  first: Int32Array;
  count: Int32Array;
  seq: Int32Array;
  arr: Int32Array;
  dep: Int32Array;
}

/**
 * Rough heap cost of one carried trip (map entry, id string, column slots): the carry gets a
 * sixth of the heap cap, so a feed far larger than expected degrades to lookups, never to an
 * out-of-memory poll.
 */
const BYTES_PER_TRIP = 120;

/**
 * The schedule as one long-lived poller sees it, for one static index version. Within a
 * version a trip id's route, line, headsign and planned times never change, and consecutive
 * polls share nearly all trips, so each poll asks SQLite only about trips (and stop sequences)
 * the previous poll did not carry. Trip data covers the last poll only and at most a budget
 * derived from the heap cap; stop names are kept per city stop of the index, which bounds them.
 */
export class ScheduleCarry {
  private carried: Carried | null = null;
  private readonly stopNamed: Uint8Array;
  private readonly stopName: (string | null)[] = [];
  private readonly stopLat: Float64Array;
  private readonly stopLon: Float64Array;
  /** Lines and headsigns repeat across thousands of trips: one string each. */
  private readonly strings = new Map<string, string>();
  readonly maxTrips: number;

  readonly index: StaticIndex;
  readonly stopIds: string[];
  constructor(index: StaticIndex, stopIds: string[], maxTrips?: number) {
    this.index = index;
    this.stopIds = stopIds;
    this.stopNamed = new Uint8Array(stopIds.length);
    this.stopLat = new Float64Array(stopIds.length).fill(NaN);
    this.stopLon = new Float64Array(stopIds.length).fill(NaN);
    this.maxTrips = maxTrips ?? Math.floor(getHeapStatistics().heap_size_limit / 6 / BYTES_PER_TRIP);
  }

  /** The schedule for one poll over `tripId` (complete: after decoding). */
  poll(tripId: string[]): PollSchedule {
    return new PollSchedule(this, tripId);
  }

  /** @internal */ get last(): Carried | null {
    return this.carried;
  }

  /** @internal */ intern(s: string | null): string | null {
    if (s === null) return null;
    const have = this.strings.get(s);
    if (have !== undefined) return have;
    if (this.strings.size >= 100_000) this.strings.clear();
    this.strings.set(s, s);
    return s;
  }

  /** @internal */ keep(c: Carried) {
    this.carried = c;
  }

  loadStops(ords: Iterable<number>) {
    const want: number[] = [];
    for (const s of ords)
      if (!this.stopNamed[s]) {
        this.stopNamed[s] = 1;
        want.push(s);
      }
    for (let k = 0; k < want.length; k += BATCH) {
      const part = want.slice(k, k + BATCH);
      const ord = new Map(part.map((s) => [this.stopIdOf(s), s]));
      for (const [id, name, lat, lon] of this.index.stopsMeta(part.map((s) => this.stopIdOf(s)))) {
        const s = ord.get(id)!;
        this.stopName[s] = name;
        if (lat !== null) this.stopLat[s] = lat;
        if (lon !== null) this.stopLon[s] = lon;
      }
    }
  }

  stop(s: number) {
    const lat = this.stopLat[s] ?? NaN,
      lon = this.stopLon[s] ?? NaN;
    return { name: this.stopName[s] ?? null, lat: Number.isNaN(lat) ? null : lat, lon: Number.isNaN(lon) ? null : lon };
  }

  /** Stop ordinals are handed out by the static index this carry's `stopIds` came from, so they are in range. */
  private stopIdOf(s: number): string {
    return this.stopIds[s]!;
  }
}

export class PollSchedule implements TripColumns {
  readonly route: (string | null | undefined)[];
  readonly named: Uint8Array;
  readonly line: (string | null)[] = [];
  readonly headsign: (string | null)[] = [];
  private planned: { arr: Int32Array; dep: Int32Array; calls: IntColumns } | null = null;

  private readonly carry: ScheduleCarry;
  private readonly tripId: string[];
  constructor(carry: ScheduleCarry, tripId: string[]) {
    this.carry = carry;
    this.tripId = tripId;
    this.route = new Array(tripId.length);
    this.named = new Uint8Array(tripId.length);
  }

  get index() {
    return this.carry.index;
  }

  /** Trip ordinals are positions in this poll's `tripId` list, so they are in range. */
  private tripIdOf(i: number): string {
    return this.tripId[i]!;
  }

  /** The last poll's slot of trip `i`, if it was carried. */
  private slotOf(i: number): number | undefined {
    return this.carry.last?.slot.get(this.tripIdOf(i));
  }

  /** Scheduled routes of trips `ords` (null when the schedule lacks the trip). */
  async routesOf(ords: number[], pause: () => Promise<void>): Promise<(string | null)[]> {
    const last = this.carry.last;
    const ask: number[] = [];
    for (const i of ords) {
      if (this.route[i] !== undefined) continue;
      const s = this.slotOf(i);
      const r = s === undefined ? undefined : last!.route[s];
      if (r === undefined) ask.push(i);
      else this.route[i] = r;
    }
    for (let b = 0; b < ask.length; b += BATCH) {
      const part = ask.slice(b, b + BATCH);
      const found = new Map(this.index.routesOf(part.map((i) => this.tripIdOf(i))));
      for (const i of part) this.route[i] = found.get(this.tripIdOf(i)) ?? null;
      if ((b / BATCH) % 16 === 15) await pause();
    }
    return ords.map((i) => this.route[i] ?? null);
  }

  /** Line and headsign (and scheduled route) of trips `ords`, carried or asked in batches. */
  loadTrips(ords: Iterable<number>) {
    const last = this.carry.last;
    const ask: number[] = [];
    for (const i of ords) {
      if (this.named[i]) continue;
      this.named[i] = 1;
      const s = this.slotOf(i);
      if (s !== undefined && last!.named[s]) {
        this.route[i] = last!.route[s];
        this.line[i] = last!.line[s] ?? null;
        this.headsign[i] = last!.headsign[s] ?? null;
      } else ask.push(i);
    }
    for (let k = 0; k < ask.length; k += BATCH) {
      const part = ask.slice(k, k + BATCH);
      const ord = new Map(part.map((i) => [this.tripIdOf(i), i]));
      for (const i of part) this.route[i] ??= null;
      for (const [id, route, line, headsign] of this.index.tripsMeta(part.map((i) => this.tripIdOf(i)))) {
        const i = ord.get(id)!;
        this.route[i] = route;
        this.line[i] = this.carry.intern(line);
        this.headsign[i] = this.carry.intern(headsign);
      }
    }
  }

  trip(i: number) {
    return { route: this.route[i] ?? null, line: this.line[i] ?? null, headsign: this.headsign[i] ?? null };
  }

  loadStops(ords: Iterable<number>) {
    this.carry.loadStops(ords);
  }
  stop(s: number) {
    return this.carry.stop(s);
  }

  /**
   * Planned arrival and departure of every stop call (rows of `calls`: trip ordinal, seq, ...;
   * a trip's calls are consecutive rows). Calls the last poll carried are copied; the rest are
   * asked a batch at a time, each answer mapped back through its trip's first row (one map
   * entry per trip, no string built per call).
   */
  async plannedTimes(calls: IntColumns, pause: () => Promise<void>): Promise<{ arr: Int32Array; dep: Int32Array }> {
    const n = calls.length;
    const arr = new Int32Array(n).fill(MISSING),
      dep = new Int32Array(n).fill(MISSING);
    const last = this.carry.last;
    const batch: PlannedCall[] = Array.from({ length: BATCH }, () => ({ trip_id: '', seq: 0 }));
    let size = 0,
      flushes = 0;
    const firstRow = new Map<string, number>();
    const flush = () => {
      for (const [trip, seq, a, d] of this.index.plannedCalls(batch.slice(0, size))) {
        let r = firstRow.get(trip);
        if (r === undefined) continue;
        const i = calls.get(r, 0);
        for (; r < n && calls.get(r, 0) === i; r++) {
          if (calls.get(r, 1) === seq && arr[r] === MISSING) {
            arr[r] = a ?? NONE;
            dep[r] = d ?? NONE;
            break;
          }
        }
      }
      size = 0;
      firstRow.clear();
    };
    for (let r = 0; r < n;) {
      const i = calls.get(r, 0);
      let end = r + 1;
      while (end < n && calls.get(end, 0) === i) end++;
      const s = last ? this.slotOf(i) : undefined;
      // A carried slot indexes the last poll's first/count, whose calls lie within its seq/arr/dep.
      const from = s === undefined ? 0 : last!.first[s]!,
        to = s === undefined ? 0 : from + last!.count[s]!;
      for (let x = r; x < end; x++) {
        const seq = calls.get(x, 1);
        if (seq === NONE) continue;
        let y = from;
        while (y < to && last!.seq[y] !== seq) y++;
        if (y < to) {
          arr[x] = last!.arr[y]!;
          dep[x] = last!.dep[y]!;
          continue;
        }
        const trip = this.tripIdOf(i);
        if (!firstRow.has(trip)) firstRow.set(trip, r);
        const slot = batch[size++]!; // size < BATCH = batch.length, flushed when full
        slot.trip_id = trip;
        slot.seq = seq;
        if (size === BATCH) {
          flush();
          if (++flushes % 8 === 0) await pause();
        }
      }
      r = end;
    }
    if (size > 0) flush();
    this.planned = { arr, dep, calls };
    return { arr, dep };
  }

  /**
   * Makes this poll the carry for the next one: the first `maxTrips` trips, with the planned
   * times of their calls (the rows this poll placed, including those the schedule lacks).
   */
  keep() {
    const trips = Math.min(this.tripId.length, this.carry.maxTrips);
    const slot = new Map<string, number>();
    for (let i = 0; i < trips; i++) slot.set(this.tripIdOf(i), i);
    const first = new Int32Array(trips),
      count = new Int32Array(trips);
    let seq: Int32Array = new Int32Array(0),
      arr = seq,
      dep = seq;
    if (this.planned) {
      const { calls } = this.planned;
      let rows = 0;
      while (rows < calls.length && calls.get(rows, 0) < trips) rows++;
      seq = new Int32Array(rows);
      for (let r = 0; r < rows; r++) {
        const i = calls.get(r, 0);
        if (count[i]!++ === 0) first[i] = r; // i < trips: the loop stops at the first trip beyond
        seq[r] = calls.get(r, 1);
      }
      arr = this.planned.arr.subarray(0, rows);
      dep = this.planned.dep.subarray(0, rows);
    }
    this.route.length = Math.min(this.route.length, trips);
    this.line.length = Math.min(this.line.length, trips);
    this.headsign.length = Math.min(this.headsign.length, trips);
    this.carry.keep({ slot, route: this.route, named: this.named.subarray(0, trips), line: this.line, headsign: this.headsign, first, count, seq, arr, dep });
    this.planned = null;
  }
}
