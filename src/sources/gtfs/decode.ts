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

/**
 * Walks a FeedMessage a slice of top-level fields at a time (`decodeSlice` reads up to 4096 of
 * them) and awaits `pause` between slices, so a 70 MB feed never blocks requests for seconds. A
 * protobuf error is a parse failure; so is a feed whose walk did not see a FeedHeader.
 */
export async function walkFeed(
  buf: Uint8Array,
  decodeSlice: (reader: protobuf.Reader, max: number) => void,
  sawHeader: () => boolean,
  pause?: () => Promise<void>,
): Promise<void> {
  const reader = protobuf.Reader.create(buf);
  while (reader.pos < reader.len) {
    try {
      decodeSlice(reader, 4096);
    } catch (err) {
      throw new UpstreamError('parse', `malformed GTFS-Realtime feed: ${err instanceof Error ? err.message : String(err)}`, undefined, undefined, {
        cause: err,
      });
    }
    if (pause && reader.pos < reader.len) await pause();
  }
  if (!sawHeader()) throw new UpstreamError('parse', 'GTFS-Realtime feed without a FeedHeader');
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
