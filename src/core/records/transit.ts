import { date, int, lat, list, lon, num, record, text, time, z, lazy, type Infer } from '../schema.ts';

/**
 * Live transit from the nationwide GTFS and GTFS-Realtime feeds. Trip, route and stop ids are
 * the feed's: volatile, they change with each timetable version.
 */

const id = (description: string) => z.string().meta({ description });
const flag = (description: string) => z.boolean().meta({ description });
const count = (description: string) => z.number().int().min(0).meta({ description });

export const TransitDeparture = lazy(() =>
  record({
    stop_id: id('GTFS stop id (DELFI id such as de:08111:6333, or a numeric id)'),
    stop_name: text('Stop name'),
    lat: lat(),
    lon: lon(),
    trip_id: id('Volatile GTFS trip id: /transit/trips/{trip_id} shows the trip'),
    route_id: text('Volatile GTFS route id: /transit/routes/{route_id}/status shows the route'),
    line: text('Line (route short name), e.g. U5'),
    headsign: text('Destination shown on the vehicle'),
    stop_sequence: int('Position of the stop in the trip (GTFS stop_sequence)'),
    planned_departure_at: time('Planned departure from the static schedule'),
    expected_departure_at: z.iso.datetime({ offset: true }).meta({ description: 'Expected departure: planned plus the realtime delay' }),
    delay_s: int('Realtime delay (negative when early)', 's'),
    cancelled: flag('The whole trip is cancelled'),
    skipped: flag('The trip skips this stop'),
  }),
);
export type TransitDeparture = Infer<typeof TransitDeparture>;

const stopUpdate = lazy(() =>
  record({
    stop_sequence: int('GTFS stop_sequence'),
    stop_id: text('GTFS stop id'),
    name: text('Stop name'),
    lat: lat(),
    lon: lon(),
    planned_arrival_at: time('Planned arrival'),
    planned_departure_at: time('Planned departure'),
    expected_arrival_at: time('Expected arrival'),
    expected_departure_at: time('Expected departure'),
    arrival_delay_s: int('Arrival delay (propagated from the last update where the feed has none for this stop)', 's'),
    departure_delay_s: int('Departure delay (propagated likewise)', 's'),
    realtime: flag('The feed carried an update for this stop (not only a propagated delay)'),
    skipped: flag('The trip skips this stop'),
  }),
);

export const TRIP_PROGRESS = ['not_started', 'en_route', 'at_stop', 'finished', 'unknown'] as const;

export const TripRecord = lazy(() =>
  record({
    trip_id: id('Volatile GTFS trip id'),
    route_id: text('Volatile GTFS route id'),
    line: text('Line (route or trip short name)'),
    headsign: text('Destination shown on the vehicle'),
    service_date: date('Service day the trip runs on'),
    cancelled: flag('The whole trip is cancelled'),
    delay_s: int('Current delay: at the next stop, or the last reported one', 's'),
    unresolved: flag('The trip could not be joined with the static schedule (times and names only where the feed has them)'),
    unresolved_reason: text('Why the trip is unresolved; null when it is resolved'),
    progress: z.enum(TRIP_PROGRESS).meta({ description: `Where the trip is now: ${TRIP_PROGRESS.join(', ')}` }),
    progress_at: z.iso
      .datetime({ offset: true })
      .meta({ description: "The moment progress, position and delay_s are computed for (the answer's time; a cached copy keeps it)" }),
    position: record(
      {
        lat: lat(),
        lon: lon(),
        estimated: z.literal(true).meta({ description: 'Always true: the feed has no vehicle positions' }),
        method: z.literal('linear_between_stops').meta({ description: 'Interpolated linearly between the previous and the next stop by expected times' }),
        from_stop_id: text('Stop the vehicle left (equals to_stop_id while at a stop)'),
        to_stop_id: text('Stop the vehicle heads to'),
        fraction: num('Share of the way from from_stop_id to to_stop_id, 0 to 1'),
      },
      'Estimated position; null before the start, after the end or without positions',
    ).nullable(),
    stop_updates: list(stopUpdate(), 'Every stop of the trip with planned and expected times'),
  }),
);
export type TripRecord = Infer<typeof TripRecord>;

export const RouteStatusRecord = lazy(() =>
  record({
    route_id: id('Volatile GTFS route id'),
    line: text('Line (route short name)'),
    active_trips: count('Trips of the route in the last poll that are not cancelled'),
    cancelled_trips: count('Cancelled trips of the route in the last poll'),
    avg_delay_s: num('Mean delay of the active trips', 's'),
    max_delay_s: int('Largest delay of the active trips', 's'),
    trips: list(
      record({ trip_id: id('Volatile GTFS trip id'), delay_s: int('Delay of the trip', 's'), cancelled: flag('Cancelled') }),
      'Every trip of the route in the last poll',
    ),
  }),
);
export type RouteStatusRecord = Infer<typeof RouteStatusRecord>;

export const TransitRecord = lazy(() =>
  record({
    network: z.string().meta({ description: 'The feed the data comes from' }),
    stop_selection: record(
      {
        method: z.string().meta({ description: 'How stops are assigned to the city' }),
        radius_km: num('Radius around the register point for stops without a district key', 'km'),
      },
      "How the city's stops are chosen",
    ),
    schedule: record(
      {
        indexed_at: time('When the static schedule was indexed'),
        stops_in_city: count('Stops of the schedule assigned to the city'),
        stops_total: count('Stops in the schedule'),
        routes_total: count('Routes in the schedule'),
        trips_total: count('Trips in the schedule'),
      },
      'The static schedule (null until it is indexed)',
    ).nullable(),
    realtime: record(
      {
        as_of: time('Timestamp of the realtime feed'),
        polled_at: time('When the feed was last polled'),
        entities: count('Entities in the feed'),
        trip_updates: count('Trip updates in the feed'),
        alerts: count('Alerts in the feed'),
        refresh_seconds: count('Polling interval, seconds'),
      },
      'The realtime feed (null until it is polled)',
    ).nullable(),
    links: record(
      {
        departures: z.string().meta({ description: 'Live departures of the city' }),
        trip: z.string().meta({ description: 'Template: one trip' }),
        route_status: z.string().meta({ description: 'Template: one route' }),
      },
      'Paths of the live transit endpoints',
    ),
  }),
);
export type TransitRecord = Infer<typeof TransitRecord>;
