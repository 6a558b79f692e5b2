import type { Adapter, GlobalAdapter } from '../../core/data-type.ts';
import type { LiveChargePoint } from '../../core/records/energy.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { chargingResult, parseAfirStatus, parseAfirTable, type StaticPoint } from './afir.ts';
import type { ChargingStatusAggregates, ChargingStatusRecord } from '../../core/records/energy.ts';
import { distanceKm } from '../../cities/register.ts';
import { coreName, matchRadiusKm } from '../bnetza/city-match.ts';
import { foldLetters } from '../../core/fold.ts';
import { assertPage, chargingStatus, type OcpiLocation } from './ocpdb-locations.ts';

const PAGE = 500;
const MAX_PAGES = 20;

function round(v: number): number {
  return Math.round(v * 1e5) / 1e5;
}

/** OCPI locations in a box around the city, paged, kept when within the city radius and named after the city. */
export const liveChargingStatus: Adapter<ChargingStatusRecord> = async ({ city, http }) => {
  const r = matchRadiusKm(city);
  const dLat = r / 111.32,
    dLon = r / (111.32 * Math.cos((city.lat * Math.PI) / 180));
  const locations: OcpiLocation[] = [];
  for (let page = 0, offset = 0; page < MAX_PAGES; page++) {
    const body = assertPage(
      await http.json('/api/public/v1/locations', {
        query: {
          lat_min: round(city.lat - dLat),
          lat_max: round(city.lat + dLat),
          lon_min: round(city.lon - dLon),
          lon_max: round(city.lon + dLon),
          limit: PAGE,
          offset,
        },
      }),
    );
    locations.push(...body.items);
    offset += body.items.length;
    if (body.items.length === 0 || (body.total_count === null ? body.items.length < PAGE : offset >= body.total_count)) break;
  }
  // The box reaches into neighbouring towns (Esslingen next to Stuttgart): the OCPI `city` must name the city too.
  const core = coreName(city.name);
  const data = chargingStatus(
    locations,
    (lat, lon, place) =>
      distanceKm(city.lat, city.lon, lat, lon) <= r &&
      (place === null || (foldLetters(place).startsWith(core) && !/[a-z]/.test(foldLetters(place).charAt(core.length)))),
  );
  if (data.points.length === 0) return { data: null, status: 'no_data', meta: { reason: 'no charging point with live status in the city' } };
  return { data, as_of: data.aggregates.last_update };
};

/** The compare view: the city's counts only, and how many points were left out. */
export function summariseChargingStatus(data: unknown): ChargingStatusAggregates & { points_omitted: number } {
  const d = data as ChargingStatusRecord;
  return { ...d.aggregates, points_omitted: d.points.length };
}

/** OCPDB's static table is large and changes slowly. */
const STATIC_TABLE = { freshSeconds: 6 * 3600, staleSeconds: 2 * 86400 };
export const OCPDB_DATEX_REALTIME = '/api/public/datex/v3.5/json/realtime';
export const OCPDB_DATEX_STATIC = '/api/public/datex/v3.5/json/static';

/**
 * Every charge point of OCPDB's DATEX II AFIR status feed, joined with its static table. The static
 * table failing (too large, unreachable) leaves status-only points and says so in meta.
 */
export const ocpdbLiveCharging: GlobalAdapter<LiveChargePoint[]> = async (ctx) => {
  const status = parseAfirStatus(await ctx.http.json(OCPDB_DATEX_REALTIME));
  let table: Record<string, StaticPoint> | null = null;
  let note: string | null = null;
  try {
    table = await ctx.cached('datex-static-table', STATIC_TABLE, async () => parseAfirTable(await ctx.http.json(OCPDB_DATEX_STATIC)));
  } catch (err) {
    note = `the static table could not be read (${err instanceof UpstreamError ? err.kind : 'error'}): status-only points`;
  }
  return chargingResult(status, table, note);
};
