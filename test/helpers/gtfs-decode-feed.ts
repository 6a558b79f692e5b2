import protobuf from 'protobufjs/minimal.js';
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { num, toTripUpdate, walkFeed, type FeedSummary, type RtTripUpdate } from '../../src/sources/gtfs/decode.ts';

/**
 * The object decoder of GTFS-Realtime feeds, kept as the reference the poller's direct decoder
 * (src/sources/gtfs/feed-columns.ts) is tested against; nothing in src/ uses it.
 */
const { transit_realtime: RT } = GtfsRealtimeBindings;
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

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
 */
export async function decodeFeed(buf: Uint8Array, onTrip: OnTrip, pause?: () => Promise<void>): Promise<FeedSummary> {
  const state = { timestamp: null, entities: 0, trip_updates: 0, alerts: 0, sawHeader: false };
  await walkFeed(
    buf,
    (reader, max) => decodeSome(reader, state, onTrip, max),
    () => state.sawHeader,
    pause,
  );
  const { sawHeader: _, ...summary } = state;
  return summary;
}
