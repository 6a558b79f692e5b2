import type { DataType, FetchContext } from './types.ts';
import { mapLimit } from '../pipeline/limit.ts';
import { UBA } from '../sources/uba/source.ts';
import { recentWindow } from '../sources/uba/cet.ts';
import { HOURLY_SCOPE } from '../sources/uba/components.ts';
import { latestMeasurement, type MeasuresBody } from '../sources/uba/measures.ts';
import { latestAirquality, type AirqualityBody } from '../sources/uba/airquality.ts';
import { cascadeReadings } from '../sources/uba/readings.ts';
import { isActive, nearestActive, parseStations, placeKey, type StationAt, type StationListBody, type UbaStation } from '../sources/uba/stations.ts';

/** Nearest-station search for `air`: at most this many stations, this far from the register point. */
const AIR_MAX_KM = 30;
const AIR_MAX_STATIONS = 6;
/** `air-uba`: stations named after the city must still lie this close (homonyms such as two Halles). */
const CITY_MATCH_MAX_KM = 25;
/** `air-uba` when UBA names no station after the city: stations within this radius. */
const CITY_RADIUS_KM = 8;
const MAX_CITY_STATIONS = 30;
/** UBA publishes an hour one to two hours late; six hours leave room for gaps. */
const WINDOW_HOURS = 6;

/** The national station list (~90 KB), shared by every city through the pipeline's cache. */
function loadStations(ctx: Pick<FetchContext, 'cached' | 'http'>): Promise<UbaStation[]> {
  return ctx.cached('stations', { freshSeconds: 86400, staleSeconds: 604800 }, async () =>
    parseStations(await ctx.http.json<StationListBody>('/stations/json', { query: { use: 'airquality', lang: 'de' } })),
  );
}

const today = (now: Date) => now.toISOString().slice(0, 10);
/** Zoned timestamps carry +01:00 or +02:00, so order them as instants, not as text. */
const newest = (isos: string[]) => isos.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));

export const air: DataType = {
  type: 'air',
  label: 'Luftqualität',
  label_en: 'Air quality',
  group: 'environment',
  tool: 'air_quality_live',
  summary: 'Latest hourly PM10, PM2.5, NO2, O3 and SO2 readings of the nearest federal/state measuring stations',
  description:
    `One-hour means (UBA scope ${HOURLY_SCOPE.code}) from the Umweltbundesamt air data API. Each pollutant comes from the nearest active ` +
    `station (within ${AIR_MAX_KM} km) that reported it in the last ${WINDOW_HOURS} hours, so readings may come from different stations; ` +
    'every reading names its station and distance. UBA times are CET without summer time and are given here as zoned Europe/Berlin times. ' +
    'Values are provisional (not yet validated by the Länder).',
  path: '/api/v1/live/{city}/air',
  aliases: ['/api/v1/cities/{slug}/air'],
  source: UBA,
  cache: { freshSeconds: 900, staleSeconds: 3600 },
  compare: { resource: 'air' },
  highlight: 'air',
  async fetch(ctx) {
    const { city, http, now } = ctx;
    const near = nearestActive(await loadStations(ctx), city.lat, city.lon, today(now), AIR_MAX_KM).slice(0, AIR_MAX_STATIONS);
    if (near.length === 0) return { data: null, status: 'no_data', meta: { reason: `no active UBA station within ${AIR_MAX_KM} km` } };
    const window = recentWindow(now, WINDOW_HOURS);
    const readings = await cascadeReadings(near, async (s, p) =>
      latestMeasurement(
        await http.json<MeasuresBody>('/measures/json', { query: { ...window, station: s.id, component: p.id, scope: HOURLY_SCOPE.id } }),
        s.id,
      ),
    );
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
      data: {
        observed_at: observedAt,
        readings,
        stations: near.filter((s) => usedIds.has(s.id)).map(stationView),
      },
      as_of: observedAt,
      meta: missing.length ? { missing_components: missing } : undefined,
    };
  },
};

export const airUba: DataType = {
  type: 'air-uba',
  label: 'Luftmessstationen',
  label_en: 'Air monitoring stations',
  group: 'environment',
  tool: 'air_quality',
  summary: 'All active air quality stations of the city with their latest air quality index and component values',
  description:
    'Stations are those whose UBA municipality ("station city") is the city (compared without qualifiers such as "am Main" and within ' +
    `${CITY_MATCH_MAX_KM} km of the register point, because UBA gives no municipality key); when UBA names no station after the city, the ` +
    `active stations within ${CITY_RADIUS_KM} km are listed instead (meta.matched_by says which). Values are UBA's airquality endpoint: the ` +
    `latest hour of the last ${WINDOW_HOURS} with the index 0 (very good) to 4 (very poor) and the components it is based on.`,
  path: '/api/v1/live/{city}/air-uba',
  aliases: ['/api/v1/cities/{slug}/air-uba'],
  source: UBA,
  cache: { freshSeconds: 900, staleSeconds: 3600 },
  list: true,
  async fetch(ctx) {
    const { city, http, now } = ctx;
    const all = await loadStations(ctx);
    const key = placeKey(city.name);
    let matchedBy: 'municipality' | 'radius' = 'municipality';
    let stations: StationAt[] = nearestActive(
      all.filter((s) => isActive(s, today(now)) && s.place !== null && placeKey(s.place) === key),
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
    const latest = await mapLimit(stations, 4, async (s) =>
      latestAirquality(await http.json<AirqualityBody>('/airquality/json', { query: { ...window, station: s.id } }), s.id),
    );
    if (latest.every((l) => l === null)) {
      return { data: null, status: 'no_data', meta: { ...meta, reason: `no published hour in the last ${WINDOW_HOURS} hours` } };
    }
    const asOf = newest(latest.flatMap((l) => (l ? [l.end] : [])));
    return {
      data: stations.map((s, i) => ({ ...stationView(s), street: s.street, house_number: s.house_number, post_code: s.post_code, latest: latest[i] })),
      as_of: asOf,
      meta,
    };
  },
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

export const UBA_TYPES: DataType[] = [air, airUba];
