import type { Store } from '../../core/store.ts';
import { toBerlinIso } from '../../core/time.ts';
import { decodeTripEntity, type RtTripUpdate } from './decode.ts';
import { decodeFeedColumns } from './feed-columns.ts';
import { IntColumns, NONE } from './columns.ts';
import { cityBoards } from './board-build.ts';
import { BOARD_KEY } from './board-read.ts';
import type { PollSchedule } from './schedule-carry.ts';

/**
 * The realtime feed as three sharded indexes in the store, rewritten completely on every poll
 * with a TTL of a few poll intervals: an id missing from the last poll is gone from its shard,
 * and everything expires when the poller stops. ~190k trips become a few thousand keys, so a
 * poll is a few thousand writes and a request reads one small shard.
 *
 *   transit:trip:<bucket>   {trip_id: [base64 FeedEntity, route_id, delay_s]}  (4096 shards)
 *   transit:route:<bucket>  {route_id: [[trip_id, delay_s, cancelled], ...]}   (256 shards)
 *   transit:departures:<city>  the city's finished departure board (board-build.ts)
 *   transit:feed            last poll: as_of, counts (no TTL: the summary reports it)
 *
 * The trip shard keeps the entity's protobuf bytes instead of a JSON rendering: a slice of the
 * feed buffer costs nothing until its shard is written, which keeps the poller within memory.
 */
export const TRIP_BUCKETS = 4096;
export const ROUTE_BUCKETS = 256;

export const KEYS = {
  feed: 'transit:feed',
  trip: (b: number) => `transit:trip:${b}`,
  route: (b: number) => `transit:route:${b}`,
  departures: BOARD_KEY,
};

/** FNV-1a: stable across processes and instances, cheap on short ids. */
export function bucketOf(id: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % n;
}

export interface FeedStatus {
  as_of: string | null;
  polled_at: string;
  entities: number;
  trip_updates: number;
  alerts: number;
  route_ids_from_static: number;
  stop_calls_in_cities: number;
  ttl_seconds: number;
  /** Unique per poll: readers keep what they derived from one poll until the next (trip-cache.ts). */
  poll_id?: string;
  /** When this poll's indexes expire at the latest (epoch ms; they are written with the TTL after `polled_at`). */
  expires_ms?: number;
}

/**
 * Stops inside register cities, numbered so the poller can keep stop calls as integers. The
 * lookup is a null-prototype object, not a Map: gtfs.de stop ids are numeric strings, which
 * V8 resolves as integer-keyed elements much faster than Map.get on millions of fresh strings
 * per poll (bench/README.md, "Figures behind code comments").
 */
export interface CityStopTable {
  ids: string[];
  city: string[];
  ordinal: Record<string, number>;
}

export function cityStopTable(cityOf: Map<string, string>): CityStopTable {
  const ids: string[] = [],
    city: string[] = [];
  const ordinal = Object.create(null) as Record<string, number>;
  for (const [id, c] of cityOf) {
    ordinal[id] = ids.length;
    ids.push(id);
    city.push(c);
  }
  return { ids, city, ordinal };
}

/** What the poller needs from the static schedule (absent before its first build). */
export interface StaticLookup {
  stops: CityStopTable;
  /** The schedule for one poll over these trips (by ordinal), with what earlier polls carried. */
  poll(tripId: string[]): PollSchedule;
}

/**
 * A trip's current delay as the feed states it: delays live on the stop-time updates; the
 * first update not yet in the past (by its absolute time, when given) wins, else the first
 * with a delay at all, else the rarely set trip-level delay. The poller applies this rule while
 * decoding (feed-columns.ts); tests hold the two to each other.
 */
export function currentDelay(t: RtTripUpdate, nowS: number): number | null {
  let first: number | null = null;
  for (const u of t.updates) {
    const d = u.dep_delay ?? u.arr_delay;
    const at = u.dep_time ?? u.arr_time;
    if (at !== null && at >= nowS && d !== null) return d;
    if (first === null && d !== null && at === null) first = d;
  }
  return first ?? t.trip_delay;
}

const j = JSON.stringify;
const n = (v: number) => (v === NONE ? 'null' : String(v));
const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

export interface IndexResult {
  status: FeedStatus;
  writes: number;
  /** Decoding and building the indexes in memory. */
  decode_index_ms: number;
  /** Writing them to the store, departure boards included. */
  write_ms: number;
  /** Of write_ms: placing the stop calls through the schedule and building the city boards. */
  boards_ms: number;
}

/** Trip shards, assembled one at a time after a counting sort of the trips by shard. */
async function writeTripShards(
  buf: Buffer,
  trips: IntColumns,
  tripId: string[],
  tripRoute: (string | null)[],
  set: (k: string, v: string) => Promise<void>,
): Promise<void> {
  // Trip ordinals < count, shard numbers < TRIP_BUCKETS: every typed-array index below is in range.
  const count = trips.length;
  const shardOf = new Uint16Array(count);
  const offsets = new Int32Array(TRIP_BUCKETS + 1);
  for (let i = 0; i < count; i++) {
    const shard = bucketOf(tripId[i]!, TRIP_BUCKETS);
    shardOf[i] = shard;
    offsets[shard + 1]!++;
  }
  for (let b = 0; b < TRIP_BUCKETS; b++) offsets[b + 1]! += offsets[b]!;
  const order = new Int32Array(count);
  const fill = offsets.slice(0, TRIP_BUCKETS);
  for (let i = 0; i < count; i++) order[fill[shardOf[i]!]!++] = i;
  for (let b = 0; b < TRIP_BUCKETS; b++) {
    const parts: string[] = [];
    for (let k = offsets[b]!; k < offsets[b + 1]!; k++) {
      const i = order[k]!;
      parts.push(`${j(tripId[i]!)}:[${j(buf.toString('base64', trips.get(i, 0), trips.get(i, 1)))},${j(tripRoute[i] ?? null)},${n(trips.get(i, 2))}]`);
    }
    await set(KEYS.trip(b), `{${parts.join(',')}}`);
  }
}

/**
 * Decodes a feed and writes every index. The feed comes in a holder that is emptied once the
 * trip shards are written, so its ~70 MB can be collected before the other indexes are built;
 * `feedReleased` is called then (a process that may force a collection does it there, else
 * the buffer would wait for V8's next full collection and overlap the departure boards).
 */
export async function indexFeed(
  feed: { buf: Buffer | null },
  o: { store: Store; ttlMs: number; now: Date; static: StaticLookup | null; feedReleased?: () => void },
): Promise<IndexResult> {
  if (!feed.buf) throw new Error('indexFeed: empty feed holder');
  const started = performance.now();
  const baseS = Math.floor(o.now.getTime() / 1000);
  const stops = o.static?.stops ?? null;
  const { summary, tripId, tripRoute, tripStart, trips, calls, unrouted } = await decodeFeedColumns(feed.buf, baseS, stops?.ordinal ?? null, yieldToLoop);
  const cityCalls = calls.length;
  const routes = new Map<string, number[]>();
  let fromStatic = 0;
  const schedule = o.static?.poll(tripId) ?? null;
  if (schedule && unrouted.length > 0) {
    const found = await schedule.routesOf(unrouted, yieldToLoop);
    for (const [k, i] of unrouted.entries()) if ((tripRoute[i] = found[k] ?? null) !== null) fromStatic++;
  }
  for (let i = 0; i < tripRoute.length; i++) {
    const route = tripRoute[i];
    if (!route) continue;
    const list = routes.get(route);
    if (list) list.push(i);
    else routes.set(route, [i]);
  }
  const decodeIndexMs = performance.now() - started;

  const writeStarted = performance.now();
  let writes = 0;
  const set = async (key: string, value: string) => {
    await o.store.set(key, value, o.ttlMs);
    if (++writes % 64 === 0) await yieldToLoop();
  };

  await writeTripShards(feed.buf, trips, tripId, tripRoute, set);
  feed.buf = null;
  o.feedReleased?.();

  const routeShards: string[][] = Array.from({ length: ROUTE_BUCKETS }, () => []);
  for (const [route, list] of routes) {
    const items = list.map((i) => `[${j(tripId[i]!)},${n(trips.get(i, 2))},${trips.get(i, 3)}]`);
    routeShards[bucketOf(route, ROUTE_BUCKETS)]!.push(`${j(route)}:[${items.join(',')}]`);
  }
  routes.clear();
  for (const [b, shard] of routeShards.entries()) await set(KEYS.route(b), `{${shard.join(',')}}`);

  const boardsStarted = performance.now();
  const written = new Set<string>();
  if (stops && schedule) {
    const boards = cityBoards({
      nowMs: o.now.getTime(),
      aheadExtraS: Math.ceil(o.ttlMs / 1000),
      baseS,
      tripId,
      tripRoute,
      tripStart,
      tripCancelled: (i) => trips.get(i, 3) === 1,
      calls,
      stopIds: stops.ids,
      stopCity: stops.city,
      schedule,
      pause: yieldToLoop,
    });
    for await (const [city, board] of boards) {
      written.add(city);
      await set(KEYS.departures(city), board);
    }
  }
  const boardsMs = performance.now() - boardsStarted;
  schedule?.keep();
  // Cities without a call this poll: their previous board must not outlive it.
  for (const key of await o.store.keys(KEYS.departures(''))) {
    if (!written.has(key.slice(KEYS.departures('').length))) {
      await o.store.del(key);
      writes++;
    }
  }

  const status: FeedStatus = {
    as_of: summary.timestamp ? toBerlinIso(summary.timestamp * 1000) : null,
    polled_at: toBerlinIso(o.now),
    entities: summary.entities,
    trip_updates: summary.trip_updates,
    alerts: summary.alerts,
    route_ids_from_static: fromStatic,
    stop_calls_in_cities: cityCalls,
    ttl_seconds: Math.round(o.ttlMs / 1000),
    poll_id: `${o.now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
    expires_ms: o.now.getTime() + o.ttlMs,
  };
  await o.store.set(KEYS.feed, JSON.stringify(status));
  forgetFeedStatus(o.store);
  return {
    status,
    writes: writes + 1,
    decode_index_ms: Math.round(decodeIndexMs),
    write_ms: Math.round(performance.now() - writeStarted),
    boards_ms: Math.round(boardsMs),
  };
}

/**
 * Every live request starts from the last poll's summary, so a process keeps what it read for
 * up to FEED_RECHECK_MS instead of asking the store each time. A poll this process ran or
 * awaited replaces it at once (forgetFeedStatus); another instance's poll shows within that.
 */
const FEED_RECHECK_MS = 1000;
const feedMemo = new WeakMap<Store, { readAt: number; status: FeedStatus | null }>();

export async function readFeedStatus(store: Store): Promise<FeedStatus | null> {
  const now = Date.now();
  const m = feedMemo.get(store);
  if (m && now - m.readAt < FEED_RECHECK_MS) return m.status;
  const v = await store.get(KEYS.feed);
  const status = v ? (JSON.parse(v) as FeedStatus) : null;
  feedMemo.set(store, { readAt: now, status });
  return status;
}

/** After a poll: the next request reads the new summary. */
export function forgetFeedStatus(store: Store) {
  feedMemo.delete(store);
}

export interface StoredTrip {
  update: RtTripUpdate;
  route_id: string | null;
  delay_s: number | null;
}

/**
 * One trip's entry out of its shard's JSON text, without parsing the other ~50 trips: keys are
 * JSON-quoted ids and no value is followed by `:[`, so `"<id>":[` marks exactly that key; the
 * entry ends at the first `]` outside a string.
 */
export function shardEntry(shard: string, tripId: string): string | null {
  const key = `${JSON.stringify(tripId)}:[`;
  let at = shard.indexOf(key);
  while (at > 0 && shard[at - 1] !== '{' && shard[at - 1] !== ',') at = shard.indexOf(key, at + 1);
  if (at < 0) return null;
  const start = at + key.length - 1;
  let inString = false;
  for (let i = start + 1; i < shard.length; i++) {
    const c = shard.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 93) return shard.slice(start, i + 1);
  }
  return null;
}

export async function readTrip(store: Store, tripId: string): Promise<StoredTrip | null> {
  const shard = await store.get(KEYS.trip(bucketOf(tripId, TRIP_BUCKETS)));
  const raw = shard ? shardEntry(shard, tripId) : null;
  if (!raw) return null;
  const entry = JSON.parse(raw) as [string, string | null, number | null];
  const update = decodeTripEntity(Buffer.from(entry[0], 'base64'));
  return update ? { update, route_id: entry[1], delay_s: entry[2] } : null;
}

export type RouteTrip = [tripId: string, delay: number | null, cancelled: 0 | 1];

export async function readRoute(store: Store, routeId: string): Promise<RouteTrip[]> {
  const shard = await store.get(KEYS.route(bucketOf(routeId, ROUTE_BUCKETS)));
  if (!shard) return [];
  const m = JSON.parse(shard) as Record<string, RouteTrip[]>;
  return (Object.prototype.hasOwnProperty.call(m, routeId) ? m[routeId] : undefined) ?? [];
}
