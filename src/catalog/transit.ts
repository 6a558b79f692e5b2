import type { DataType, FetchContext } from '../core/data-type.ts';
import type { ParamDecl } from '../core/params.ts';
import { GTFS_DE, POLL_INTERVAL_MS } from '../sources/gtfs/source.ts';
import { readFeedStatus, readRoute, readTrip } from '../sources/gtfs/rt-index.ts';
import { openStaticIndex, staticIndexPath } from '../sources/gtfs/static-index.ts';
import { detailOf, TripCache } from '../sources/gtfs/trip-cache.ts';
import { boardWindow, readBoard, renderBoard, WINDOW_AHEAD_S, WINDOW_PAST_S, type RenderedBoard } from '../sources/gtfs/board-read.ts';
import { PollCache } from '../sources/gtfs/poll-cache.ts';
import { routeStatus } from '../sources/gtfs/route-status.ts';
import { radiusKmOf } from '../sources/gtfs/city-stops.ts';
import { toBerlinIso } from '../core/time.ts';

/**
 * Live transit from the gtfs.de GTFS-Realtime feed. Every type reads what the poller and the
 * static job wrote (store + on-disk schedule); none calls the upstream on a request. Ids are
 * volatile: they change with each timetable version, and one missing from the recent polls
 * has expired (no_data).
 */
const ID = /^[\w:.\-]{1,200}$/;
const REFRESH = POLL_INTERVAL_MS / 1000;

const staticOf = (ctx: Pick<FetchContext, 'config'>) => openStaticIndex(staticIndexPath(ctx.config));

const idParam = (name: string, what: string): ParamDecl => ({
  name,
  in: 'path',
  type: 'string',
  required: true,
  pattern: ID,
  patternHint: 'a GTFS id of letters, digits and _ : . - (at most 200 characters)',
  description: what,
});

const trips = new TripCache();
/** Rendered boards of the cities asked for in the current poll (a big city's board is a few MB). */
const boards = new PollCache<RenderedBoard | null>(16);

const noFeedMeta = { reason: 'no realtime data stored yet (the GTFS-RT poller has not run or its data expired)' };

export const transitDepartures: DataType = {
  type: 'transit-departures',
  label: 'ÖPNV-Abfahrten (Echtzeit)',
  label_en: 'Transit departures (live)',
  group: 'live',
  tool: 'transit_departures',
  summary: 'Live departures at the stops of the city from the nationwide GTFS-Realtime feed, with planned and expected times and delay (Tier B)',
  description: `Stops of the city are those whose DELFI id carries the city's district key (de:<AGS5>:…, district-free cities) or that lie within a circle of the city's area around its register point. Departures expected from ${WINDOW_PAST_S / 60} minutes ago to ${WINDOW_AHEAD_S / 60} minutes ahead. trip_id and route_id are volatile ids for the trip and route-status endpoints.`,
  path: '/api/v1/live/{city}/transit/departures',
  source: GTFS_DE,
  params: [
    {
      name: 'stop_id',
      type: 'string',
      pattern: ID,
      patternHint: 'a GTFS stop id',
      description: 'Only departures of this stop (a stop_id from an earlier answer)',
    },
  ],
  cache: 'stored',
  list: true,
  live: { refreshSeconds: REFRESH },
  async fetch(ctx) {
    const feed = await readFeedStatus(ctx.store);
    const board = feed
      ? await boards.get(feed, ctx.city.slug, ctx.now.getTime(), async () => {
          const stored = await readBoard(ctx.store, ctx.city.slug);
          return stored ? renderBoard(stored) : null;
        })
      : null;
    if (!feed || !board) return { data: null, status: 'no_data', as_of: feed?.as_of ?? null, meta: noFeedMeta };
    // The poller stored the board finished and sorted: a request only takes its window of it.
    const data = boardWindow(board, ctx.now.getTime(), ctx.params.stop_id as string | undefined);
    return { data, as_of: feed.as_of, meta: { unplaced_calls: board.unplaced } };
  },
};

export const transitTrip: DataType = {
  type: 'transit-trip',
  label: 'ÖPNV-Fahrt (Echtzeit)',
  label_en: 'Transit trip (live)',
  group: 'live',
  tool: 'transit_trip',
  summary: 'One trip from the live departures: delay, stop updates with names and times, and an estimated position interpolated between stops (Tier B)',
  path: '/api/v1/live/{city}/transit/trips/{trip_id}',
  source: GTFS_DE,
  params: [idParam('trip_id', 'Volatile trip id from the trip_id field of the departures endpoint')],
  cache: 'stored',
  live: { refreshSeconds: REFRESH },
  async fetch(ctx) {
    const tripId = ctx.params.trip_id as string;
    const feed = await readFeedStatus(ctx.store);
    const index = staticOf(ctx);
    const nowMs = ctx.now.getTime();
    const trip = feed ? await trips.get(feed, index, tripId, nowMs, () => readTrip(ctx.store, tripId)) : null;
    if (!trip)
      return { data: null, status: 'no_data', as_of: feed?.as_of ?? null, meta: { reason: 'no realtime update for this trip id (unknown or expired)' } };
    return { data: detailOf(trip, index, nowMs), as_of: feed?.as_of ?? null };
  },
};

export const transitRouteStatus: DataType = {
  type: 'transit-route-status',
  label: 'ÖPNV-Linienstatus (Echtzeit)',
  label_en: 'Transit route status (live)',
  group: 'live',
  tool: 'transit_route_status',
  summary: 'Active trips, average and maximum delay of one route in the live feed (Tier B)',
  path: '/api/v1/live/{city}/transit/routes/{route_id}/status',
  source: GTFS_DE,
  params: [idParam('route_id', 'Volatile route id from the route_id field of the departures endpoint')],
  cache: 'stored',
  live: { refreshSeconds: REFRESH },
  async fetch(ctx) {
    const routeId = ctx.params.route_id as string;
    const feed = await readFeedStatus(ctx.store);
    const trips = await readRoute(ctx.store, routeId);
    const line = staticOf(ctx)?.route(routeId)?.short_name ?? null;
    const status = routeStatus(routeId, line, trips);
    if (status.active_trips === 0)
      return {
        data: null,
        status: 'no_data',
        as_of: feed?.as_of ?? null,
        meta: { reason: trips.length ? 'all trips of this route are cancelled' : 'no active trips for this route id (unknown or expired)' },
      };
    return { data: status, as_of: feed?.as_of ?? null };
  },
};

export const transit: DataType = {
  type: 'transit',
  label: 'ÖPNV',
  label_en: 'Public transit',
  group: 'transport',
  tool: 'transit',
  summary:
    "The city's public transit in the nationwide GTFS feeds: its stops, the state of the live feed and links to live departures, trips and route status (Tier B)",
  source: GTFS_DE,
  cache: 'stored',
  async fetch(ctx) {
    const feed = await readFeedStatus(ctx.store);
    const index = staticOf(ctx);
    if (!feed && !index) return { data: null, status: 'no_data', meta: { reason: 'neither the static schedule nor the realtime feed has been loaded yet' } };
    const slug = ctx.city.slug;
    return {
      data: {
        network: 'gtfs.de Germany (free): all operators nationwide',
        stop_selection: {
          method: 'district key in DELFI stop ids, else within the radius around the register point',
          radius_km: Math.round(radiusKmOf(ctx.city) * 10) / 10,
        },
        schedule: index
          ? {
              indexed_at: toBerlinIso(index.meta.built_at),
              stops_in_city: index.stopCountOfCity(slug),
              stops_total: index.meta.stops,
              routes_total: index.meta.routes,
              trips_total: index.meta.trips,
            }
          : null,
        realtime: feed
          ? {
              as_of: feed.as_of,
              polled_at: feed.polled_at,
              entities: feed.entities,
              trip_updates: feed.trip_updates,
              alerts: feed.alerts,
              refresh_seconds: REFRESH,
            }
          : null,
        links: {
          departures: `/api/v1/live/${slug}/transit/departures`,
          trip: `/api/v1/live/${slug}/transit/trips/{trip_id}`,
          route_status: `/api/v1/live/${slug}/transit/routes/{route_id}/status`,
        },
      },
      as_of: feed?.as_of ?? null,
    };
  },
};

export const TRANSIT_TYPES: DataType[] = [transit, transitDepartures, transitTrip, transitRouteStatus];
