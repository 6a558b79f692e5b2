import protobuf from 'protobufjs/minimal.js';
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';

/**
 * GTFS-Realtime feeds encoded with the official bindings, shaped like gtfs.de's free feed:
 * TripUpdates whose delays sit on the stop-time updates (often without absolute times), an
 * empty route_id, Alerts beside them, and no VehiclePositions.
 */
const RT = GtfsRealtimeBindings.transit_realtime;

export interface GenStop {
  seq: number;
  stop_id?: string;
  arr_delay?: number;
  dep_delay?: number;
  /** POSIX seconds. */
  arr_time?: number;
  dep_time?: number;
  skipped?: boolean;
}

export interface GenTrip {
  trip_id: string;
  route_id?: string;
  start_date?: string;
  start_time?: string;
  cancelled?: boolean;
  stops: GenStop[];
}

function stopEvent(delay?: number, time?: number) {
  if (delay === undefined && time === undefined) return undefined;
  return { ...(delay !== undefined ? { delay } : {}), ...(time !== undefined ? { time } : {}) };
}

function tripEntity(t: GenTrip, id: string) {
  return {
    id,
    tripUpdate: {
      trip: {
        tripId: t.trip_id,
        ...(t.route_id !== undefined ? { routeId: t.route_id } : {}),
        ...(t.start_date ? { startDate: t.start_date } : {}),
        ...(t.start_time ? { startTime: t.start_time } : {}),
        ...(t.cancelled ? { scheduleRelationship: RT.TripDescriptor.ScheduleRelationship.CANCELED } : {}),
      },
      stopTimeUpdate: t.stops.map((s) => ({
        stopSequence: s.seq,
        ...(s.stop_id ? { stopId: s.stop_id } : {}),
        ...(stopEvent(s.arr_delay, s.arr_time) ? { arrival: stopEvent(s.arr_delay, s.arr_time) } : {}),
        ...(stopEvent(s.dep_delay, s.dep_time) ? { departure: stopEvent(s.dep_delay, s.dep_time) } : {}),
        ...(s.skipped ? { scheduleRelationship: RT.TripUpdate.StopTimeUpdate.ScheduleRelationship.SKIPPED } : {}),
      })),
    },
  };
}

function alertEntity(id: string, text: string) {
  return {
    id,
    alert: {
      headerText: { translation: [{ text, language: 'de' }] },
      informedEntity: [{ agencyId: '1' }],
    },
  };
}

function header(timestamp: number) {
  return { gtfsRealtimeVersion: '2.0', incrementality: RT.FeedHeader.Incrementality.FULL_DATASET, timestamp };
}

/** A whole feed as one FeedMessage. */
export function encodeFeed(o: { timestamp: number; trips: GenTrip[]; alerts?: string[] }): Buffer {
  const entity = [...o.trips.map((t, i) => tripEntity(t, `tu-${i}`)), ...(o.alerts ?? []).map((text, i) => alertEntity(`al-${i}`, text))];
  const msg = RT.FeedMessage.fromObject({ header: header(o.timestamp), entity });
  return Buffer.from(RT.FeedMessage.encode(msg).finish());
}

/**
 * The same bytes FeedMessage.encode writes, one field at a time, so a benchmark can stream a
 * feed of realistic size to disk: the header chunk, then one chunk per entity.
 */
export function encodeHeaderChunk(timestamp: number): Uint8Array {
  const w = protobuf.Writer.create();
  RT.FeedHeader.encode(RT.FeedHeader.fromObject(header(timestamp)), w.uint32(10).fork()).ldelim();
  return w.finish();
}

export function encodeTripChunk(t: GenTrip, id: string): Uint8Array {
  const w = protobuf.Writer.create();
  RT.FeedEntity.encode(RT.FeedEntity.fromObject(tripEntity(t, id)), w.uint32(18).fork()).ldelim();
  return w.finish();
}

export function encodeAlertChunk(id: string, text: string): Uint8Array {
  const w = protobuf.Writer.create();
  RT.FeedEntity.encode(RT.FeedEntity.fromObject(alertEntity(id, text)), w.uint32(18).fork()).ldelim();
  return w.finish();
}

/** Static GTFS feeds are zipped with the shared fixture writer. */
export { zipFiles } from './zip.ts';
