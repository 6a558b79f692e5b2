import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { parseFreiburgPls } from './freiburg.ts';
import { parseKarlsruheParkhaeuser } from './karlsruhe.ts';
import { PARKENDD_CITIES, parseParkenddCity } from './parkendd.ts';
import { guardedParking } from './sites.ts';

/** The city each feed covers and how it is fetched. */
const FEEDS_BY_CITY: Record<string, (ctx: FetchContext) => Promise<ParkingSiteRecord[]>> = {
  'freiburg-im-breisgau': async ({ http }) =>
    parseFreiburgPls(await http.json('', { query: { request: 'getfeature', service: 'wfs', version: '1.1.0', typename: 'pls', outputformat: 'geojson' } })),
  karlsruhe: async ({ http }) => parseKarlsruheParkhaeuser(await http.json('', { base: http.url('karlsruhe') })),
};

for (const [slug, c] of Object.entries(PARKENDD_CITIES)) {
  FEEDS_BY_CITY[slug] ??= async ({ http }) =>
    parseParkenddCity(await http.json(`/${encodeURIComponent(c.id)}`, { base: http.url('parkendd') }), `parkendd-${c.id.toLowerCase()}`, c.license).sites;
}

export const PARKING_CITIES: readonly string[] = Object.keys(FEEDS_BY_CITY).sort();

/**
 * Car parks of the city's own feed. A feed whose newest live value is older than the guard is
 * frozen: no_data with the reason, never shown as live.
 */
export const cityParking: Adapter<ParkingSiteRecord[]> = async (ctx) => {
  const feed = FEEDS_BY_CITY[ctx.city.slug];
  if (!feed) return { data: null, status: 'no_data', meta: { reason: 'no parking feed is configured for this city' } };
  const sites = await feed(ctx);
  if (sites.length === 0) return { data: null, status: 'no_data', meta: { reason: 'the parking feed lists no car park' } };
  return guardedParking(sites, ctx.now);
};

/** The compare view: totals over the sites with a live count. */
export function summariseParking(data: unknown): { sites: number; live_sites: number; capacity: number; free_spaces: number } {
  const sites = data as ParkingSiteRecord[];
  const live = sites.filter((s) => s.free_spaces !== null);
  return {
    sites: sites.length,
    live_sites: live.length,
    capacity: live.reduce((n, s) => n + (s.capacity ?? 0), 0),
    free_spaces: live.reduce((n, s) => n + (s.free_spaces ?? 0), 0),
  };
}
