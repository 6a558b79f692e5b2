import protobuf from 'protobufjs/minimal.js';
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { IntColumns, NONE } from './columns.ts';
import { num, walkFeed, type FeedSummary } from './decode.ts';

const RT = GtfsRealtimeBindings.transit_realtime;
const SKIPPED = RT.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED;
const CANCELED = RT.TripDescriptor.ScheduleRelationship.CANCELED;

/** What the poller keeps of a feed: per trip ids and integers, per stop call in a city one row of integers. */
export interface FeedColumns {
  summary: FeedSummary;
  tripId: string[];
  /** The feed's route_id ('' as null); filled from the static schedule later. */
  tripRoute: (string | null)[];
  tripStart: (string | null)[];
  /** Entity start and end in the feed buffer, current delay (NONE: none), cancelled (0/1). */
  trips: IntColumns;
  /** Trip, seq, stop ordinal, arr delay, arr time - baseS, dep delay, dep time - baseS, skipped (NONE: absent). */
  calls: IntColumns;
  /** Trips whose feed entry lacks a route_id. */
  unrouted: number[];
}

/** Resolves a stop id to its city-stop ordinal, -1 when unknown. */
export type StopOrdinals = Record<string, number>;

/**
 * A protobuf varint read as int64 into a double, the value protobufjs' int64() then
 * Long#toNumber() give, without the Long object.
 */
function int64(r: protobuf.Reader): number {
  const buf = r.buf,
    len = r.len;
  // Every `buf[pos++]!` below follows a `pos < len` check, so the byte exists.
  let pos = r.pos,
    lo = 0,
    b: number;
  for (let i = 0; i < 4; i++) {
    if (pos >= len) throw new RangeError(`index out of range: ${pos} + 1 > ${len}`);
    b = buf[pos++]!;
    lo = (lo | ((b & 127) << (i * 7))) >>> 0;
    if (b < 128) {
      r.pos = pos;
      return lo;
    }
  }
  if (pos >= len) throw new RangeError(`index out of range: ${pos} + 1 > ${len}`);
  b = buf[pos++]!;
  lo = (lo | ((b & 127) << 28)) >>> 0;
  let hi = (b & 127) >> 4;
  if (b >= 128) {
    for (let i = 0; ; i++) {
      if (i === 5) throw new Error('invalid varint encoding');
      if (pos >= len) throw new RangeError(`index out of range: ${pos} + 1 > ${len}`);
      b = buf[pos++]!;
      hi = (hi | ((b & 127) << (i * 7 + 3))) >>> 0;
      if (b < 128) break;
    }
  }
  r.pos = pos;
  return (hi | 0) * 4294967296 + (lo >>> 0);
}

/**
 * Reads the TripUpdates of a feed straight from the wire format into columns, with no object
 * per stop-time update (a 70 MB feed holds ~3M of them, which as protobufjs objects were most
 * of the poller's heap and GC time). The rules are those of decode.ts' object path, field by
 * field: absent is not 0, the last occurrence of a singular field wins, `trip` and `id` are
 * required. Headers, vehicles and alerts still go through the bindings.
 */
class ColumnDecoder {
  readonly tripId: string[] = [];
  readonly tripRoute: (string | null)[] = [];
  readonly tripStart: (string | null)[] = [];
  readonly trips = new IntColumns(4);
  // Absolute times (columns 4, 6) and skipped (7) are rare in gtfs.de: sparse.
  readonly calls = new IntColumns(8, { 4: NONE, 6: NONE, 7: 0 });
  readonly unrouted: number[] = [];
  readonly summary = { timestamp: null as number | null, entities: 0, trip_updates: 0, alerts: 0, sawHeader: false };

  // The trip update being read (instance fields, so no object per update).
  private tId = '';
  private tRoute = '';
  private tDate = '';
  private tCancelled = false;
  private tHasDelay = false;
  private tDelay = 0;
  private found = false;
  private foundDelay = 0;
  private hasFirst = false;
  private firstDelay = 0;
  // The stop-time event being read.
  private evHasDelay = false;
  private evDelay = 0;
  private evHasTime = false;
  private evTime = 0;

  private readonly nowS: number;
  private readonly ordinal: StopOrdinals | null;
  constructor(nowS: number, ordinal: StopOrdinals | null) {
    this.nowS = nowS;
    this.ordinal = ordinal;
  }

  private event(r: protobuf.Reader, end: number) {
    this.evHasDelay = false;
    this.evHasTime = false;
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 1:
          this.evDelay = r.int32();
          this.evHasDelay = true;
          break;
        case 2:
          this.evTime = int64(r);
          this.evHasTime = true;
          break;
        case 3:
          r.int32();
          break;
        default:
          r.skipType(tag & 7);
      }
    }
  }

  /** The ordinal of the stop id at the reader, -1 for an empty or unknown id; digits skip the string. */
  private stop(r: protobuf.Reader): number {
    const at = r.pos;
    const len = r.uint32();
    const start = r.pos,
      end = start + len,
      buf = r.buf;
    // A canonical decimal below 1e9 names the same property as its string (how gtfs.de numbers stops).
    if (len > 0 && len <= 9 && end <= r.len && (buf[start] !== 48 || len === 1)) {
      let v = 0,
        k = start;
      for (; k < end; k++) {
        const c = buf[k]! - 48; // k < end <= r.len
        if (c < 0 || c > 9) break;
        v = v * 10 + c;
      }
      if (k === end) {
        r.pos = end;
        const o = this.ordinal === null ? undefined : this.ordinal[v];
        return o === undefined ? -1 : o;
      }
    }
    r.pos = at;
    const id = r.string();
    const o = id === '' || this.ordinal === null ? undefined : this.ordinal[id];
    return o === undefined ? -1 : o;
  }

  private stopTimeUpdate(r: protobuf.Reader, end: number, ord: number, baseS: number) {
    let hasSeq = false,
      seq = 0,
      stop = -1,
      rel = 0;
    let aHasD = false,
      aD = 0,
      aHasT = false,
      aT = 0;
    let dHasD = false,
      dD = 0,
      dHasT = false,
      dT = 0;
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 1:
          seq = r.uint32();
          hasSeq = true;
          break;
        case 4:
          stop = this.stop(r);
          break;
        case 2:
          this.event(r, r.uint32() + r.pos);
          aHasD = this.evHasDelay;
          aD = this.evDelay;
          aHasT = this.evHasTime;
          aT = this.evTime;
          break;
        case 3:
          this.event(r, r.uint32() + r.pos);
          dHasD = this.evHasDelay;
          dD = this.evDelay;
          dHasT = this.evHasTime;
          dT = this.evTime;
          break;
        case 5:
          rel = r.int32();
          break;
        default:
          r.skipType(tag & 7);
      }
    }
    // rt-index.ts currentDelay, one update at a time.
    if (!this.found) {
      const hasD = dHasD || aHasD,
        d = dHasD ? dD : aD;
      const hasAt = dHasT || aHasT,
        at = dHasT ? dT : aT;
      if (hasAt && at >= this.nowS && hasD) {
        this.found = true;
        this.foundDelay = d;
      } else if (!this.hasFirst && hasD && !hasAt) {
        this.hasFirst = true;
        this.firstDelay = d;
      }
    }
    if (stop < 0) return;
    this.calls.push(
      ord,
      hasSeq ? seq : NONE,
      stop,
      aHasD ? aD : NONE,
      aHasT ? aT - baseS : NONE,
      dHasD ? dD : NONE,
      dHasT ? dT - baseS : NONE,
      rel === SKIPPED ? 1 : 0,
    );
  }

  /** Service dates repeat across all ~190k trips: one string per distinct date, not per trip. */
  private readonly dates = new Map<number, string>();

  private date(r: protobuf.Reader): string {
    const at = r.pos;
    const len = r.uint32();
    const start = r.pos,
      buf = r.buf;
    if (len === 8 && start + 8 <= r.len) {
      let v = 0,
        k = start;
      for (; k < start + 8; k++) {
        const c = buf[k]! - 48; // k < start + 8 <= r.len
        if (c < 0 || c > 9) break;
        v = v * 10 + c;
      }
      if (k === start + 8) {
        r.pos = k;
        let s = this.dates.get(v);
        if (s === undefined) this.dates.set(v, (s = String(v).padStart(8, '0')));
        return s;
      }
    }
    r.pos = at;
    return r.string();
  }

  private descriptor(r: protobuf.Reader, end: number) {
    this.tId = '';
    this.tRoute = '';
    this.tDate = '';
    this.tCancelled = false;
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 1:
          this.tId = r.string();
          break;
        case 5:
          this.tRoute = r.string();
          break;
        case 6:
          r.uint32();
          break;
        case 2:
          r.skip(r.uint32());
          break;
        case 3:
          this.tDate = this.date(r);
          break;
        case 4:
          this.tCancelled = r.int32() === CANCELED;
          break;
        default:
          r.skipType(tag & 7);
      }
    }
  }

  /** One TripUpdate; its stop calls are appended for trip `ord` (the caller drops them if the trip is not kept). */
  private tripUpdate(r: protobuf.Reader, end: number, ord: number, baseS: number) {
    let hasTrip = false;
    this.tHasDelay = false;
    this.found = false;
    this.hasFirst = false;
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 1:
          this.descriptor(r, r.uint32() + r.pos);
          hasTrip = true;
          break;
        case 2:
          this.stopTimeUpdate(r, r.uint32() + r.pos, ord, baseS);
          break;
        case 3:
          r.skip(r.uint32());
          break;
        case 4:
          r.skipType(0);
          break;
        case 5:
          this.tDelay = r.int32();
          this.tHasDelay = true;
          break;
        case 6:
          r.skip(r.uint32());
          break;
        default:
          r.skipType(tag & 7);
      }
    }
    if (!hasTrip) throw new Error("missing required 'trip'");
  }

  entity(r: protobuf.Reader, start: number, end: number, baseS: number) {
    const ord = this.trips.length,
      mark = this.calls.length;
    let hasId = false,
      deleted = false,
      hasTrip = false,
      hasAlert = false;
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 1:
          r.skip(r.uint32());
          hasId = true;
          break;
        case 2:
          deleted = r.bool();
          break;
        case 3:
          // A repeated singular field: the last one counts.
          this.calls.length = mark;
          this.tripUpdate(r, r.uint32() + r.pos, ord, baseS);
          hasTrip = true;
          break;
        case 4:
          RT.VehiclePosition.decode(r, r.uint32());
          break;
        case 5:
          RT.Alert.decode(r, r.uint32());
          hasAlert = true;
          break;
        default:
          r.skipType(tag & 7);
      }
    }
    if (!hasId) throw new Error("missing required 'id'");
    this.summary.entities++;
    if (hasAlert) this.summary.alerts++;
    if (!hasTrip || deleted || this.tId === '') {
      this.calls.length = mark;
      return;
    }
    this.summary.trip_updates++;
    const delay = this.found ? this.foundDelay : this.hasFirst ? this.firstDelay : this.tHasDelay ? this.tDelay : NONE;
    this.trips.push(start, end, delay, this.tCancelled ? 1 : 0);
    this.tripId.push(this.tId);
    this.tripRoute.push(this.tRoute || null);
    this.tripStart.push(this.tDate || null);
    if (!this.tRoute) this.unrouted.push(ord);
  }
}

/** Up to `max` top-level fields of the FeedMessage (header 1, entity 2); synchronous so V8 optimises it. */
function decodeSome(r: protobuf.Reader, d: ColumnDecoder, baseS: number, max: number) {
  for (let k = 0; k < max && r.pos < r.len; k++) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      const header = RT.FeedHeader.decode(r, r.uint32());
      d.summary.sawHeader = true;
      d.summary.timestamp = Object.prototype.hasOwnProperty.call(header, 'timestamp') ? num(header.timestamp) : null;
    } else if (field === 2) {
      const len = r.uint32();
      const start = r.pos;
      d.entity(r, start, start + len, baseS);
    } else {
      r.skipType(tag & 7);
    }
  }
}

/**
 * The feed's trips and their stop calls at the stops in `ordinal` (none without it), with each
 * trip's current delay at `baseS` (rt-index.ts currentDelay). `pause` is awaited every few
 * thousand entities so a poll never blocks requests for seconds.
 */
export async function decodeFeedColumns(buf: Uint8Array, baseS: number, ordinal: StopOrdinals | null, pause?: () => Promise<void>): Promise<FeedColumns> {
  const d = new ColumnDecoder(baseS, ordinal);
  await walkFeed(
    buf,
    (r, max) => decodeSome(r, d, baseS, max),
    () => d.summary.sawHeader,
    pause,
  );
  const { sawHeader: _, ...summary } = d.summary;
  return { summary, tripId: d.tripId, tripRoute: d.tripRoute, tripStart: d.tripStart, trips: d.trips, calls: d.calls, unrouted: d.unrouted };
}
