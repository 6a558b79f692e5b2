import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { AirRecord, AirStationRecord } from '../../core/records/air.ts';
import { mapLimit } from '../../core/limit.ts';
import { recentWindow } from './cet.ts';
import { HOURLY_SCOPE, type Pollutant } from './components.ts';
import { latestPerStation, stationKey } from './measures.ts';
import { latestAirquality } from './airquality.ts';
import { cascadeReadings } from './readings.ts';
import { isActive, nearestActive, parseStations, type StationAt, type UbaStation } from './stations.ts';
import { nameCore } from '../../core/fold.ts';

/** Nearest-station search for `air`: at most this many stations, this far from the register point. */
export const AIR_MAX_KM = 30;
const AIR_MAX_STATIONS = 6;
/** `air-uba`: stations named after the city must still lie this close (homonyms such as two Halles). */
export const CITY_MATCH_MAX_KM = 25;
/** `air-uba` when UBA names no station after the city: stations within this radius. */
export const CITY_RADIUS_KM = 8;
const MAX_CITY_STATIONS = 30;
/** UBA publishes an hour one to two hours late; six hours leave room for gaps. */
export const WINDOW_HOURS = 6;

/** The national station list (~90 KB), shared by every city through the pipeline's cache. */
function loadStations(ctx: Pick<FetchContext, 'cached' | 'http'>): Promise<UbaStation[]> {
  return ctx.cached('stations', { freshSeconds: 86400, staleSeconds: 604800 }, async () =>
    parseStations(await ctx.http.json<unknown>('/stations/json', { query: { use: 'airquality', lang: 'de' } })),
  );
}

const today = (now: Date) => now.toISOString().slice(0, 10);
/** Zoned timestamps carry +01:00 or +02:00, so order them as instants, not as text. */
const newest = (isos: string[]) => isos.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));

/**
 * Hourly sub-resources are keyed by the last hour of their window, so the key changes on the
 * hour: at most one upstream call per key and hour, however many cities or refreshes ask.
 */
const HOURLY = { freshSeconds: 3600, staleSeconds: 3600 };
type Window = ReturnType<typeof recentWindow>;
const hourKey = (w: Window) => `${w.date_to}T${w.time_to}`;

/**
 * One component's one-hour means at every station that measures it: one call without `station`
 * (optional on measures/json) per component and hour, shared by every city. It replaces a
 * call per station and component (up to 30 for one city when cold).
 */
function nationalMeans(ctx: Pick<FetchContext, 'cached' | 'http'>, p: Pollutant, window: Window) {
  return ctx.cached(`measures:${p.id}:${HOURLY_SCOPE.id}:${hourKey(window)}`, HOURLY, async () =>
    latestPerStation(await ctx.http.json<unknown>('/measures/json', { query: { ...window, component: p.id, scope: HOURLY_SCOPE.id } })),
  );
}

/** The newest index hour of one station: one airquality call per station and hour, whichever city asks. */
function stationIndex(ctx: Pick<FetchContext, 'cached' | 'http'>, stationId: string, window: Window) {
  return ctx.cached(`airquality:${stationKey(stationId)}:${hourKey(window)}`, HOURLY, async () =>
    latestAirquality(await ctx.http.json<unknown>('/airquality/json', { query: { ...window, station: stationId } }), stationId),
  );
}

/**
 * `air`: per pollutant the one-hour mean of the nearest active station that reported it. The
 * airquality endpoint cannot serve this: its PM10 and PM2.5 are hourly moving daily means (the
 * index's basis), not one-hour means, and it carries no SO2.
 */
export const nearestReadings: Adapter<AirRecord> = async (ctx) => {
  const { city, now } = ctx;
  const near = nearestActive(await loadStations(ctx), city.lat, city.lon, today(now), AIR_MAX_KM).slice(0, AIR_MAX_STATIONS);
  if (near.length === 0) return { data: null, status: 'no_data', meta: { reason: `no active UBA station within ${AIR_MAX_KM} km` } };
  const window = recentWindow(now, WINDOW_HOURS);
  const readings = await cascadeReadings(near, async (s, p) => (await nationalMeans(ctx, p, window))[stationKey(s.id)] ?? null);
  const present = Object.values(readings).filter((r) => r !== null);
  const missing = Object.entries(readings)
    .filter(([, r]) => r === null)
    .map(([k]) => k);
  if (present.length === 0) {
    return { data: null, status: 'no_data', meta: { reason: `no value in the last ${WINDOW_HOURS} hours at the ${near.length} nearest stations` } };
  }
  const usedIds = new Set(present.map((r) => r.station.id));
  const observedAt = newest(present.map((r) => r.time));
  return {
    data: { observed_at: observedAt, readings, stations: near.filter((s) => usedIds.has(s.id)).map(stationView) },
    as_of: observedAt,
    meta: missing.length ? { missing_components: missing } : undefined,
  };
};

/** `air-uba`: the city's own stations (by UBA's station city, else a radius) with their latest index hour. */
export const cityStations: Adapter<AirStationRecord[]> = async (ctx) => {
  const { city, now } = ctx;
  const all = await loadStations(ctx);
  const key = nameCore(city.name);
  let matchedBy: 'municipality' | 'radius' = 'municipality';
  let stations: StationAt[] = nearestActive(
    all.filter((s) => isActive(s, today(now)) && s.place !== null && nameCore(s.place) === key),
    city.lat,
    city.lon,
    today(now),
    CITY_MATCH_MAX_KM,
  );
  if (stations.length === 0) {
    matchedBy = 'radius';
    stations = nearestActive(all, city.lat, city.lon, today(now), CITY_RADIUS_KM);
  }
  stations = stations.slice(0, MAX_CITY_STATIONS);
  const meta = { matched_by: matchedBy, ...(matchedBy === 'radius' ? { radius_km: CITY_RADIUS_KM } : {}) };
  if (stations.length === 0) return { data: null, status: 'no_data', meta: { ...meta, reason: 'no active UBA station in or near the city' } };
  const window = recentWindow(now, WINDOW_HOURS);
  const latest = await mapLimit(stations, 4, (s) => stationIndex(ctx, s.id, window));
  if (latest.every((l) => l === null)) {
    return { data: null, status: 'no_data', meta: { ...meta, reason: `no published hour in the last ${WINDOW_HOURS} hours` } };
  }
  const asOf = newest(latest.flatMap((l) => (l ? [l.end] : [])));
  return {
    data: stations.map((s, i) => ({ ...stationView(s), street: s.street, house_number: s.house_number, post_code: s.post_code, latest: latest[i] ?? null })),
    as_of: asOf,
    meta,
  };
};

function stationView(s: StationAt) {
  return {
    id: s.id,
    code: s.code,
    name: s.name,
    place: s.place,
    setting: s.setting,
    station_type: s.station_type,
    network: s.network,
    lat: s.lat,
    lon: s.lon,
    distance_km: s.distance_km,
  };
}

/** History view of the station list: the nearest station's air quality index (1 very good … 5 very bad) and how many stations report one. */
export function summariseAirStations(data: unknown) {
  const stations = (data as { latest?: { index?: number | null } | null }[]).filter((s) => typeof s.latest?.index === 'number');
  return { nearest_index: stations[0]?.latest?.index ?? null, stations_with_index: stations.length };
}
