import type { FetchContext } from '../../core/data-type.ts';
import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { parseVrnAddress } from '../vrn-park-ride/sites.ts';
import { occupancyShare, zoned } from '../city-parking/sites.ts';

/** One ParkAPI source (`source_uid`) and the licence its sites carry. */
export interface ParkapiFeed {
  uid: string;
  license: string;
}

/**
 * ParkAPI v3 sources of register cities whose licence is stated openly. Stuttgart, Karlsruhe and
 * Freiburg: `attribution_license` of the converter's source info (parkapi-sources-v3). Heidelberg:
 * ParkAPI names only the contributor; the city's data platform publishes under CC BY 4.0
 * (research/infranode-facts.md, ParkenDD per city). Mannheim, Ulm (an operator's feed), Pforzheim,
 * Heilbronn, Reutlingen and others state no licence and are left out.
 */
export const PARKAPI_PARKING: Readonly<Record<string, readonly ParkapiFeed[]>> = {
  'freiburg-im-breisgau': [{ uid: 'freiburg', license: 'DL-DE/BY 2.0 (Stadt Freiburg im Breisgau)' }],
  heidelberg: [{ uid: 'heidelberg', license: 'CC BY 4.0 (Stadt Heidelberg)' }],
  karlsruhe: [{ uid: 'karlsruhe', license: 'CC BY 4.0 (Stadt Karlsruhe)' }],
  stuttgart: [{ uid: 'stuttgart', license: 'DL-DE/BY 2.0 (Landeshauptstadt Stuttgart, Tiefbauamt)' }],
};

/** Park-and-ride sources: Freiburg's P+R layers (sensor-equipped and static), dl-de/by-2-0 in the source info. */
export const PARKAPI_PARK_RIDE: Readonly<Record<string, readonly ParkapiFeed[]>> = {
  'freiburg-im-breisgau': [
    { uid: 'freiburg_p_r_sensors', license: 'DL-DE/BY 2.0 (Stadt Freiburg im Breisgau)' },
    { uid: 'freiburg_p_r_static', license: 'DL-DE/BY 2.0 (Stadt Freiburg im Breisgau)' },
  ],
};

const optText = z.string().nullish();
const optNumber = z.number().nullish();
/** Coordinates come as decimal strings or numbers depending on the serialiser. */
const optCoord = z.union([z.number(), z.string()]).nullish();

/** The public list answer; a site's realtime_* members are absent when ParkAPI deems them outdated. */
const V3ListShape = z.looseObject({
  items: z.array(
    z.looseObject({
      id: optNumber,
      original_uid: optText,
      name: optText,
      address: optText,
      type: optText,
      purpose: optText,
      lat: optCoord,
      lon: optCoord,
      capacity: optNumber,
      has_realtime_data: z.boolean().nullish(),
      realtime_capacity: optNumber,
      realtime_free_capacity: optNumber,
      realtime_opening_status: optText,
      realtime_data_updated_at: optText,
      park_and_ride_type: z.array(z.string()).nullish(),
    }),
  ),
});

const OPENING: Record<string, ParkingSiteRecord['state']> = { OPEN: 'open', CLOSED: 'closed', UNKNOWN: 'unknown' };

function coord(v: number | string | null | undefined): number | null {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? Math.round(n * 1e6) / 1e6 : null;
}

/** A P+R site is flagged with any park_and_ride_type but NO (YES, TRAIN, BUS, TRAM, CARPOOL). */
export function isParkAndRide(s: { park_and_ride_type?: string[] | null }): boolean {
  return Array.isArray(s.park_and_ride_type) && s.park_and_ride_type.some((t) => t !== 'NO');
}

export interface ParkapiSite extends ParkingSiteRecord {
  park_and_ride: boolean;
}

/** The public list answer `{items: [...]}` of one source. */
export function parseParkapiSites(body: unknown, feed: ParkapiFeed): ParkapiSite[] {
  const b = shaped(V3ListShape, body, 'ParkAPI v3 parking-sites');
  const source = `parkapi-${feed.uid.replace(/_/g, '-')}`;
  return b.items
    .filter((s) => (s.purpose ?? 'CAR') === 'CAR')
    .map((s) => {
      const capacity = typeof s.capacity === 'number' && s.capacity > 0 ? s.capacity : null;
      const live = s.has_realtime_data === true;
      const raw = s.realtime_free_capacity;
      // A count above the capacity or below zero is no count.
      const free = live && typeof raw === 'number' && raw >= 0 && (capacity === null || raw <= capacity) ? raw : null;
      const updated = free === null || !s.realtime_data_updated_at ? null : zoned(Date.parse(s.realtime_data_updated_at));
      return {
        id: `${source}:${s.original_uid ?? s.id ?? ''}`,
        name: s.name?.trim() || null,
        ...parseVrnAddress(s.address),
        lat: coord(s.lat),
        lon: coord(s.lon),
        capacity,
        free_spaces: updated === null ? null : free,
        occupancy_share: updated === null ? null : occupancyShare(free, capacity),
        state: live ? (OPENING[s.realtime_opening_status ?? ''] ?? null) : null,
        live,
        updated_at: updated,
        source,
        license: feed.license,
        park_and_ride: isParkAndRide(s),
      };
    });
}

/** The car parking sites of each source of a city, one call per source. */
export async function readParkapi(ctx: FetchContext, feeds: readonly ParkapiFeed[]): Promise<ParkapiSite[]> {
  const lists = await Promise.all(
    feeds.map(async (f) => parseParkapiSites(await ctx.http.json('/parking-sites', { query: { source_uid: f.uid, purpose: 'CAR' } }), f)),
  );
  return lists.flat();
}

/** The record without the P+R flag (the parking record has no such member). */
export function asParkingSite({ park_and_ride: _pr, ...site }: ParkapiSite): ParkingSiteRecord {
  return site;
}
