import { int, list, record, text, time, z, lazy, type Infer } from '../schema.ts';

/**
 * The departure vocabulary shared by every live departure feed (VAG, EFA, HVV GTI, RMV HAFAS)
 * and the DB station boards: the same concept has the same name and unit everywhere.
 */

/** Means of transport, one vocabulary for every feed. */
export const MODES = ['rail', 'suburban', 'subway', 'light_rail', 'tram', 'bus', 'ferry', 'cable', 'on_demand', 'other'] as const;
export type Mode = (typeof MODES)[number];

const flag = (description: string) => z.boolean().meta({ description });

/** Fields every departure-like item shares. */
export const line = () => text('Line as passengers see it, e.g. S1, U5, 25, ICE 620');
export const plannedTime = () => time('Planned (timetable) time');
export const expectedTime = () => time('Expected time from the real-time forecast; null without a forecast');
export const delaySeconds = () => int('Delay: expected_time minus planned_time (negative when early)', 's');

export const LiveDeparture = lazy(() =>
  record({
    line: line(),
    direction: text('Direction (destination) as the vehicle shows it'),
    stop: record(
      {
        id: text('Stop (station) id of the feed'),
        name: text('Stop name'),
        point: text('Stop point (platform/bay) id where the feed names one'),
      },
      'Where the departure leaves from',
    ),
    planned_time: plannedTime(),
    expected_time: expectedTime(),
    delay_s: delaySeconds(),
    platform: text('Platform, track or bay'),
    mode: z.enum(MODES).meta({ description: `Means of transport: ${MODES.join(', ')}` }),
    cancelled: z.boolean().nullable().meta({ description: 'Cancelled; null where the feed does not report cancellations' }),
    realtime: flag('The times carry a real-time forecast'),
    trip_id: text('Trip (journey) id of the feed'),
  }),
);
export type LiveDeparture = Infer<typeof LiveDeparture>;

/** A city feed's departures of one stop, as the data of departures-vag/-efa/-hvv/-rmv. */
export const LiveBoardRecord = lazy(() =>
  record({
    stop: record({ id: text('Stop id of the feed'), name: text('Stop name') }, 'The stop asked for'),
    departures: list(LiveDeparture(), 'Departures in the order the feed gives them (by time)'),
  }),
);
export type LiveBoardRecord = Infer<typeof LiveBoardRecord>;

/** What a feed parser hands its adapter: the board and the time of the feed's data. */
export interface LiveBoard extends LiveBoardRecord {
  as_of: string | null;
}

/** A DB Timetables message (disruption, delay cause, quality change ...). */
export const BoardMessage = lazy(() =>
  record({
    id: text('Message id'),
    type: z.string().meta({
      description: 'Message type: him_notice, quality_change, free_text, delay_cause, ibis, ibis_unassigned, disruption, connection (DB code as is for others)',
    }),
    code: int('DB message code (e.g. delay cause)'),
    category: text('Message category'),
    text: text('Message text as DB publishes it'),
    priority: int('Priority, 1 (high) to 4 (low)'),
    valid_from: time('Valid from'),
    valid_until: time('Valid until'),
    published_at: time('When DB published the message'),
  }),
);
export type BoardMessage = Infer<typeof BoardMessage>;

const boardEntryFields = {
  id: z.string().meta({ description: 'DB Timetables stop id of the train at this station' }),
  name: text('Train name: category and number, e.g. ICE 620'),
  line: line(),
  category: text('Train category, e.g. ICE, RE, S'),
  number: text('Train number'),
  operator: text('Operator code'),
  long_distance: flag('Long-distance train (DB filter flag F)'),
};

const boardTimeFields = {
  planned_time: plannedTime(),
  expected_time: expectedTime(),
  delay_s: delaySeconds(),
  planned_platform: text('Planned platform'),
  platform: text('Platform: the changed one where it changed, else the planned one'),
  platform_changed: flag('The platform differs from the planned one'),
  cancelled: flag('Cancelled'),
  cancelled_at: time('When the cancellation was announced'),
  added: flag('An added train, not in the plan'),
  realtime: flag('The station change list carries real-time data for this train'),
  messages: list(BoardMessage(), 'Messages of the station and of this train, newest first'),
};

export const BoardDeparture = lazy(() =>
  record({
    ...boardEntryFields,
    destination: text('Final destination'),
    via: z.array(z.string()).meta({ description: 'Stations between this one and the destination' }),
    ...boardTimeFields,
  }),
);
export type BoardDeparture = Infer<typeof BoardDeparture>;

export const BoardArrival = lazy(() =>
  record({
    ...boardEntryFields,
    origin: text('Station the train started from'),
    via: z.array(z.string()).meta({ description: 'Stations between the origin and this one' }),
    ...boardTimeFields,
  }),
);
export type BoardArrival = Infer<typeof BoardArrival>;

const boardHead = {
  station: record({ eva: z.string().meta({ description: 'EVA number of the station' }), name: text('Station name') }, 'The station of the board'),
  window_start: time('Start of the board window (the current hour, Europe/Berlin)'),
  window_end: time('End of the board window (the end of the next hour)'),
};

export const StationDeparturesRecord = lazy(() => record({ ...boardHead, departures: list(BoardDeparture(), 'Departures by planned time') }));
export type StationDeparturesRecord = Infer<typeof StationDeparturesRecord>;

export const StationArrivalsRecord = lazy(() => record({ ...boardHead, arrivals: list(BoardArrival(), 'Arrivals by planned time') }));
export type StationArrivalsRecord = Infer<typeof StationArrivalsRecord>;
