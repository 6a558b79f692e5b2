import protobuf from 'protobufjs/minimal.js';
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { UpstreamError } from '../../core/upstream-error.ts';

const { transit_realtime: RT } = GtfsRealtimeBindings;
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** One stop-time update as the feed states it; absent values stay null (0 is a real delay). */
export interface RtStopUpdate {
  seq: number | null;
  stop_id: string | null;
  arr_delay: number | null;
  /** POSIX seconds. */
  arr_time: number | null;
  dep_delay: number | null;
  dep_time: number | null;
  skipped: boolean;
}

export interface RtTripUpdate {
  trip_id: string;
  /** Often empty in gtfs.de; filled from the static trips.txt by the poller. */
  route_id: string | null;
  start_date: string | null;
  start_time: string | null;
  cancelled: boolean;
  /** The feed's trip-level delay (rarely set in gtfs.de; delays live on the stop-time updates). */
  trip_delay: number | null;
  updates: RtStopUpdate[];
}

export interface FeedSummary {
  /** Header timestamp, POSIX seconds (null when the header lacks one). */
  timestamp: number | null;
  entities: number;
  trip_updates: number;
  alerts: number;
}

/** A protobufjs 64-bit value (number or Long) as a number. */
export function num(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  const l = v as { toNumber?: () => number };
  return typeof l.toNumber === 'function' ? l.toNumber() : Number(v);
}

function event(e: { delay?: number | null; time?: unknown } | null | undefined): [number | null, number | null] {
  if (!e) return [null, null];
  return [has(e, 'delay') ? (e.delay ?? null) : null, has(e, 'time') ? num(e.time) : null];
}

export function toTripUpdate(tu: GtfsRealtimeBindings.transit_realtime.ITripUpdate): RtTripUpdate | null {
  const trip = tu.trip;
  if (!trip || !trip.tripId) return null;
  const updates: RtStopUpdate[] = [];
  for (const s of tu.stopTimeUpdate ?? []) {
    const [arrDelay, arrTime] = event(s.arrival);
    const [depDelay, depTime] = event(s.departure);
    updates.push({
      seq: has(s, 'stopSequence') ? (s.stopSequence ?? null) : null,
      stop_id: s.stopId || null,
      arr_delay: arrDelay,
      arr_time: arrTime,
      dep_delay: depDelay,
      dep_time: depTime,
      skipped: s.scheduleRelationship === RT.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED,
    });
  }
  return {
    trip_id: trip.tripId,
    route_id: trip.routeId || null,
    start_date: trip.startDate || null,
    start_time: trip.startTime || null,
    cancelled: trip.scheduleRelationship === RT.TripDescriptor.ScheduleRelationship.CANCELED,
    trip_delay: has(tu, 'delay') ? (tu.delay ?? null) : null,
    updates,
  };
}

type OnTrip = (t: RtTripUpdate, start: number, end: number) => void;

/** Decodes up to `max` top-level fields; synchronous so V8 optimises the hot loop. */
function decodeSome(reader: protobuf.Reader, summary: FeedSummary & { sawHeader: boolean }, onTrip: OnTrip, max: number) {
  for (let k = 0; k < max && reader.pos < reader.len; k++) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      const header = RT.FeedHeader.decode(reader, reader.uint32());
      summary.sawHeader = true;
      summary.timestamp = has(header, 'timestamp') ? num(header.timestamp) : null;
    } else if (field === 2) {
      const len = reader.uint32();
      const start = reader.pos;
      const entity = RT.FeedEntity.decode(reader, len);
      summary.entities++;
      if (entity.alert) summary.alerts++;
      if (entity.tripUpdate && !entity.isDeleted) {
        const t = toTripUpdate(entity.tripUpdate);
        if (t) {
          summary.trip_updates++;
          onTrip(t, start, start + len);
        }
      }
    } else {
      reader.skipType(tag & 7);
    }
  }
}

/**
 * Walks a FeedMessage entity by entity (field 1 header, field 2 entity) so that only one
 * decoded FeedEntity lives at a time; the whole decoded message of a 70 MB feed would not fit
 * the memory budget. Each trip update is handed to `onTrip` with the byte range of its entity
 * in `buf` (so the caller can keep the raw entity without copying) and then dropped.
 * `pause` is awaited every few thousand entities so a poll never blocks requests for seconds.
 * The poller reads feeds without an object per update (feed-columns.ts); this object path is
 * the reference that decoder is tested against.
 */
export async function decodeFeed(buf: Uint8Array, onTrip: OnTrip, pause?: () => Promise<void>): Promise<FeedSummary> {
  const reader = protobuf.Reader.create(buf);
  const state = { timestamp: null, entities: 0, trip_updates: 0, alerts: 0, sawHeader: false };
  while (reader.pos < reader.len) {
    try {
      decodeSome(reader, state, onTrip, 4096);
    } catch (err) {
      throw new UpstreamError('parse', `malformed GTFS-Realtime feed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (pause && reader.pos < reader.len) await pause();
  }
  if (!state.sawHeader) throw new UpstreamError('parse', 'GTFS-Realtime feed without a FeedHeader');
  const { sawHeader: _, ...summary } = state;
  return summary;
}

/** One FeedEntity's bytes (as kept by the trip index) back to its trip update. */
export function decodeTripEntity(bytes: Uint8Array): RtTripUpdate | null {
  try {
    const entity = RT.FeedEntity.decode(bytes);
    return entity.tripUpdate ? toTripUpdate(entity.tripUpdate) : null;
  } catch {
    return null;
  }
}
