import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../../core/config.ts';
import { openSqlite, prepareRaw, scalar, type DatabaseSync, type StatementSync } from '../../store/sqlite-file.ts';

/**
 * The static GTFS schedule in a compact, query-ready form: one SQLite file built by the weekly
 * job (see static-index-build.ts) and opened read-only here, so a request never re-parses the zip.
 * Times are GTFS seconds after the service day's reference (noon minus 12 h).
 */
export const STATIC_SCHEMA = `
CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE stops (stop_id TEXT PRIMARY KEY, name TEXT, lat REAL, lon REAL, city TEXT) WITHOUT ROWID;
CREATE TABLE routes (route_id TEXT PRIMARY KEY, short_name TEXT, long_name TEXT, route_type INTEGER, agency_id TEXT) WITHOUT ROWID;
CREATE TABLE trips (trip_id TEXT PRIMARY KEY, route_id TEXT, service_id TEXT, headsign TEXT, short_name TEXT) WITHOUT ROWID;
CREATE TABLE stop_times (trip_id TEXT NOT NULL, seq INTEGER NOT NULL, stop_id TEXT, arr INTEGER, dep INTEGER, PRIMARY KEY (trip_id, seq)) WITHOUT ROWID;
`;
export const STATIC_INDEXES = 'CREATE INDEX stops_city ON stops (city) WHERE city IS NOT NULL;';

export interface StaticMeta {
  built_at: string;
  feed_url: string;
  stops: number;
  routes: number;
  trips: number;
  stop_times: number;
}

export interface StaticTrip {
  trip_id: string;
  route_id: string | null;
  service_id: string | null;
  headsign: string | null;
  trip_short_name: string | null;
  route_short_name: string | null;
  route_long_name: string | null;
  route_type: number | null;
}

export interface StaticStopTime {
  seq: number;
  stop_id: string | null;
  arr: number | null;
  dep: number | null;
  name: string | null;
  lat: number | null;
  lon: number | null;
}

export interface StaticStop {
  stop_id: string;
  name: string | null;
  lat: number | null;
  lon: number | null;
}

export interface StaticRoute {
  route_id: string;
  short_name: string | null;
  long_name: string | null;
  route_type: number | null;
}

/** Next to the store's SQLite file (a shared volume when instances scale out). */
export function staticIndexPath(config: Config): string {
  const base = config.storePath === ':memory:' ? './data/stadtdaten.sqlite' : config.storePath;
  return join(dirname(resolve(base)), 'gtfs-static.sqlite');
}

type QueryName = 'trip' | 'routeOf' | 'stopTimes' | 'stopTime' | 'stop' | 'route' | 'cityStops' | 'cityStopCount' | 'allCityStops';

/** Ids per batched IN query: one statement per few hundred ids instead of one per id. */
export const BATCH = 500;

/** Planned times of one stop call as the poller asks for them (trip id + stop sequence). */
export interface PlannedCall {
  trip_id: string;
  seq: number;
}

type BatchKind = 'routes' | 'tripsMeta' | 'stopsMeta' | 'calls';

export class StaticIndex {
  private readonly db: DatabaseSync;
  private readonly q: Record<QueryName, StatementSync>;
  private readonly batched: Record<BatchKind, StatementSync>;
  readonly meta: StaticMeta;

  readonly path: string;
  constructor(path: string) {
    this.path = path;
    // Read-only never creates a file: a missing index throws, and openStaticIndex() says null.
    this.db = openSqlite(path, { readOnly: true });
    this.q = {
      trip: this.db.prepare(`SELECT t.trip_id, t.route_id, t.service_id, t.headsign, t.short_name AS trip_short_name,
        r.short_name AS route_short_name, r.long_name AS route_long_name, r.route_type
        FROM trips t LEFT JOIN routes r ON r.route_id = t.route_id WHERE t.trip_id = ?`),
      routeOf: this.db.prepare('SELECT route_id FROM trips WHERE trip_id = ?'),
      stopTimes: this.db.prepare(`SELECT st.seq, st.stop_id, st.arr, st.dep, s.name, s.lat, s.lon
        FROM stop_times st LEFT JOIN stops s ON s.stop_id = st.stop_id WHERE st.trip_id = ? ORDER BY st.seq`),
      stopTime: this.db.prepare('SELECT arr, dep FROM stop_times WHERE trip_id = ? AND seq = ?'),
      stop: this.db.prepare('SELECT stop_id, name, lat, lon FROM stops WHERE stop_id = ?'),
      route: this.db.prepare('SELECT route_id, short_name, long_name, route_type FROM routes WHERE route_id = ?'),
      cityStops: this.db.prepare('SELECT stop_id, name, lat, lon FROM stops WHERE city = ?'),
      cityStopCount: this.db.prepare('SELECT count(*) FROM stops WHERE city = ?'),
      allCityStops: prepareRaw(this.db, 'SELECT stop_id, city FROM stops WHERE city IS NOT NULL'),
    };
    const ids = Array(BATCH).fill('?').join(',');
    this.batched = {
      routes: prepareRaw(this.db, `SELECT trip_id, route_id FROM trips WHERE trip_id IN (${ids})`),
      tripsMeta: prepareRaw(
        this.db,
        `SELECT t.trip_id, t.route_id, coalesce(r.short_name, t.short_name), t.headsign
        FROM trips t LEFT JOIN routes r ON r.route_id = t.route_id WHERE t.trip_id IN (${ids})`,
      ),
      stopsMeta: prepareRaw(this.db, `SELECT stop_id, name, lat, lon FROM stops WHERE stop_id IN (${ids})`),
      calls: prepareRaw(
        this.db,
        `SELECT trip_id, seq, arr, dep FROM stop_times
        WHERE (trip_id, seq) IN (VALUES ${Array(BATCH).fill('(?,?)').join(',')})`,
      ),
    };
    const meta = Object.fromEntries((this.db.prepare('SELECT k, v FROM meta').all() as { k: string; v: string }[]).map((r) => [r.k, r.v]));
    this.meta = {
      built_at: meta.built_at ?? '',
      feed_url: meta.feed_url ?? '',
      stops: Number(meta.stops ?? 0),
      routes: Number(meta.routes ?? 0),
      trips: Number(meta.trips ?? 0),
      stop_times: Number(meta.stop_times ?? 0),
    };
  }

  trip(tripId: string): StaticTrip | null {
    return (this.q.trip.get(tripId) as StaticTrip | undefined) ?? null;
  }
  routeOf(tripId: string): string | null {
    return (scalar(this.q.routeOf, tripId) as string | null | undefined) ?? null;
  }
  stopTimes(tripId: string): StaticStopTime[] {
    return this.q.stopTimes.all(tripId) as unknown as StaticStopTime[];
  }
  stopTime(tripId: string, seq: number): { arr: number | null; dep: number | null } | null {
    return (this.q.stopTime.get(tripId, seq) as { arr: number | null; dep: number | null } | undefined) ?? null;
  }
  /**
   * Rows of `ids` (BATCH at most; the tail is padded with a repeated id, which IN ignores), raw:
   * the poller asks for ~190k trips per poll, where one statement per id costs seconds.
   */
  private batch(kind: BatchKind, ids: string[]): unknown[][] {
    const [first] = ids;
    if (first === undefined) return [];
    if (ids.length > BATCH) throw new Error(`at most ${BATCH} ids per batch`);
    const params = ids.length === BATCH ? ids : [...ids, ...Array<string>(BATCH - ids.length).fill(first)];
    return this.batched[kind].all(...params) as unknown as unknown[][];
  }
  /** [trip_id, route_id] of the trips found. */
  routesOf(tripIds: string[]): [string, string | null][] {
    return this.batch('routes', tripIds) as [string, string | null][];
  }
  /** [trip_id, route_id, line (route short name, else trip short name), headsign] of the trips found. */
  tripsMeta(tripIds: string[]): [string, string | null, string | null, string | null][] {
    return this.batch('tripsMeta', tripIds) as [string, string | null, string | null, string | null][];
  }
  /** [stop_id, name, lat, lon] of the stops found. */
  stopsMeta(stopIds: string[]): [string, string | null, number | null, number | null][] {
    return this.batch('stopsMeta', stopIds) as [string, string | null, number | null, number | null][];
  }
  /** [trip_id, seq, arr, dep] of the scheduled calls found (BATCH calls at most). */
  plannedCalls(calls: PlannedCall[]): [string, number, number | null, number | null][] {
    const [first] = calls;
    if (first === undefined) return [];
    if (calls.length > BATCH) throw new Error(`at most ${BATCH} calls per batch`);
    const params: (string | number)[] = [];
    for (let k = 0; k < BATCH; k++) {
      const c = calls[k] ?? first;
      params.push(c.trip_id, c.seq);
    }
    return this.batched.calls.all(...params) as unknown as [string, number, number | null, number | null][];
  }
  stop(stopId: string): StaticStop | null {
    return (this.q.stop.get(stopId) as StaticStop | undefined) ?? null;
  }
  route(routeId: string): StaticRoute | null {
    return (this.q.route.get(routeId) as StaticRoute | undefined) ?? null;
  }
  stopsOfCity(slug: string): StaticStop[] {
    return this.q.cityStops.all(slug) as unknown as StaticStop[];
  }
  stopCountOfCity(slug: string): number {
    return Number(scalar(this.q.cityStopCount, slug) ?? 0);
  }
  /** stop_id -> city slug of every stop inside a register city (the poller's city split). */
  cityOfStops(): Map<string, string> {
    const m = new Map<string, string>();
    for (const [id, city] of this.q.allCityStops.iterate() as unknown as Iterable<[string, string]>) m.set(id, city);
    return m;
  }
  close() {
    if (this.db.isOpen) this.db.close();
  }
}

const handles = new Map<string, { index: StaticIndex | null; mtimeMs: number; checkedAt: number }>();
const RECHECK_MS = 2000;

/**
 * The current static index at `path`, or null before the first build. The weekly job replaces
 * the file atomically (rename); a changed mtime makes the next caller reopen it.
 */
export function openStaticIndex(path: string): StaticIndex | null {
  const now = Date.now();
  const h = handles.get(path);
  if (h && now - h.checkedAt < RECHECK_MS) return h.index;
  let mtimeMs = -1;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    /* not built yet */
  }
  if (h && h.mtimeMs === mtimeMs) {
    h.checkedAt = now;
    return h.index;
  }
  h?.index?.close();
  let index: StaticIndex | null = null;
  if (mtimeMs >= 0) {
    try {
      index = new StaticIndex(path);
    } catch {
      index = null;
    }
  }
  handles.set(path, { index, mtimeMs, checkedAt: now });
  return index;
}

/** Forget an open handle (after the job replaced the file in this process). */
export function reopenStaticIndex(path: string): StaticIndex | null {
  const h = handles.get(path);
  h?.index?.close();
  handles.delete(path);
  return openStaticIndex(path);
}
