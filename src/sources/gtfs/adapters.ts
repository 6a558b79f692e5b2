import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { RouteStatusRecord, TransitDeparture, TransitRecord, TripRecord } from '../../core/records/transit.ts';
import { toBerlinIso } from '../../core/time.ts';
import { POLL_INTERVAL_MS } from './source.ts';
import { readFeedStatus, readRoute, readTrip } from './rt-index.ts';
import { openStaticIndex, staticIndexPath } from './static-index.ts';
import { detailOf, TripCache } from './trip-cache.ts';
import { boardWindow, readBoard, renderBoard, type RenderedBoard } from './board-read.ts';
import { PollCache } from './poll-cache.ts';
import { routeStatus } from './route-status.ts';
import { radiusKmOf } from './city-stops.ts';
import { stopsIn, tripStopsIn } from './city-trips.ts';

/**
 * Live transit from the gtfs.de GTFS-Realtime feed. Every adapter reads what the poller and the
 * static job wrote (store + on-disk schedule); none calls the upstream on a request. Ids are
 * volatile: they change with each timetable version, and one missing from the recent polls
 * has expired (no_data).
 */
export const REFRESH_SECONDS = POLL_INTERVAL_MS / 1000;

const staticOf = (ctx: Pick<FetchContext, 'config'>) => openStaticIndex(staticIndexPath(ctx.config));

const trips = new TripCache();
/** Rendered boards of the cities asked for in the current poll (a big city's board is a few MB). */
const boards = new PollCache<RenderedBoard | null>(16);

const noFeedMeta = { reason: 'no realtime data stored yet (the GTFS-RT poller has not run or its data expired)' };

/** The window of the city's stored departure board, optionally of one stop (?stop_id=). */
export const transitDepartures: Adapter<TransitDeparture[]> = async (ctx) => {
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
};

/** One trip of the last polls joined with the schedule, at the moment of the request. */
export const transitTrip: Adapter<TripRecord> = async (ctx) => {
  const tripId = ctx.params.trip_id as string;
  const feed = await readFeedStatus(ctx.store);
  const index = staticOf(ctx);
  const nowMs = ctx.now.getTime();
  const trip = feed ? await trips.get(feed, index, tripId, nowMs, () => readTrip(ctx.store, tripId)) : null;
  if (!trip) return { data: null, status: 'no_data', as_of: feed?.as_of ?? null, meta: { reason: 'no realtime update for this trip id (unknown or expired)' } };
  const detail = detailOf(trip, index, nowMs);
  if (!stopsIn(ctx.city.slug, detail.stop_updates)) {
    return { data: null, status: 'no_data', as_of: feed?.as_of ?? null, meta: { reason: `trip ${tripId} does not stop in ${ctx.city.name}` } };
  }
  return { data: detail, as_of: feed?.as_of ?? null };
};

/** Aggregates of one route's trips in the last poll that stop in the city. */
export const transitRouteStatus: Adapter<RouteStatusRecord> = async (ctx) => {
  const routeId = ctx.params.route_id as string;
  const feed = await readFeedStatus(ctx.store);
  const index = staticOf(ctx);
  const allTrips = await readRoute(ctx.store, routeId);
  const routeTrips = [];
  for (const t of allTrips) if (await tripStopsIn(ctx.city.slug, t[0], index, ctx.store)) routeTrips.push(t);
  const line = index?.route(routeId)?.short_name ?? null;
  const status = routeStatus(routeId, line, routeTrips);
  if (status.active_trips === 0)
    return {
      data: null,
      status: 'no_data',
      as_of: feed?.as_of ?? null,
      meta: {
        reason: routeTrips.length
          ? 'all trips of this route are cancelled'
          : allTrips.length
            ? `no trip of this route stops in ${ctx.city.name}`
            : 'no active trips for this route id (unknown or expired)',
      },
    };
  return { data: status, as_of: feed?.as_of ?? null };
};

/** The state of the schedule and the feed for the city, with the live endpoints' paths. */
export const transitSummary: Adapter<TransitRecord> = async (ctx) => {
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
            refresh_seconds: REFRESH_SECONDS,
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
};
