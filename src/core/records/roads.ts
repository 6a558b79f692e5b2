import { bool, int, lat, list, lon, num, oneOf, raw, record, text, time, z, lazy, type Infer } from '../schema.ts';
import { typeRef } from '../type-ref.ts';

/**
 * Roads and live traffic: the motorway feed (Autobahn GmbH) and the cities' own traffic feeds
 * share one event vocabulary, so road-events, incidents and roadworks items look the same
 * whichever feed they come from (`source` names it).
 */

export const EVENT_TYPES = ['roadworks', 'warning', 'closure'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** GeoJSON geometry as the feed gives it (lon, lat order), not re-projected or simplified. */
export const Geometry = lazy(() =>
  record(
    {
      type: z.string().meta({ description: 'GeoJSON geometry type, e.g. LineString or Point' }),
      coordinates: z.array(z.unknown()).meta({ description: 'GeoJSON coordinates, [lon, lat] pairs (WGS 84)' }),
    },
    'Course of the event (GeoJSON, lon/lat order)',
  ).nullable(),
);

export const RoadEvent = lazy(() =>
  record({
    id: text('Identifier of the event in its feed'),
    type: oneOf(EVENT_TYPES, 'Kind of event: roadworks, warning (congestion, accident, hazard) or closure'),
    source: z.string().meta({ description: 'Feed the event comes from: autobahn (motorway feed) or the city feed id' }),
    title: text('Title as the feed gives it, e.g. "A1 | Köln-Bocklemünd - Köln-Lövenich"'),
    road: text('Road the event is on, e.g. A1'),
    direction: text('Direction of travel affected, e.g. "Köln -> Euskirchen"; null when both or unknown'),
    description: list(z.string(), 'Text lines of the feed (German), empty lines dropped'),
    start: time('Start of the event'),
    end: time('End of the event; null when open or unknown'),
    future: bool('The event has not started yet'),
    blocked: bool('The road (section) is closed to traffic'),
    delay_minutes: int('Travel time lost, as the feed reports it', 'min'),
    average_speed_kmh: num('Average speed in the affected section', 'km/h'),
    abnormal_traffic: text('Traffic state class of a congestion warning (DATEX II abnormalTrafficType), e.g. STATIONARY_TRAFFIC'),
    max_speed_kmh: num('Speed limit through roadworks', 'km/h'),
    max_width_m: num('Maximum vehicle width through roadworks', 'm'),
    length_km: num('Length of the affected section', 'km'),
    lat: lat(),
    lon: lon(),
    distance_km: num('Distance from the city point (register coordinates)', 'km'),
    geometry: Geometry(),
    raw: raw(
      "The feed's own fields of the item, kept for clients of the older format: the motorway feed's unchanged (camelCase, the one exception), other feeds' in snake_case",
    ),
  }),
);
export type RoadEvent = Infer<typeof RoadEvent>;

/** The cities' own traffic-message types, for types that merge them with the motorway feed. */
export const TRAFFIC_REPORTS_BERLIN = typeRef<RoadEvent[]>('traffic-reports-berlin');
export const TRAFFIC_REPORTS_HANNOVER = typeRef<RoadEvent[]>('traffic-reports-hannover');

const count = (description: string) => z.number().int().min(0).meta({ description });

export const TrafficRecord = lazy(() =>
  record({
    counts: record(
      {
        warning: count('Warnings (congestion, accidents, hazards) within the radius'),
        roadworks: count('Roadworks within the radius'),
        closure: count('Closures within the radius'),
        blocked: count('Events of all kinds that close the road'),
      },
      'Events per kind on the motorways within the radius',
    ),
    max_delay_minutes: int('Largest travel time loss among the warnings', 'min'),
    roads: list(z.string(), 'Motorways asked for this city'),
    warnings: list(RoadEvent(), 'Current warnings, largest delay first'),
  }),
);
export type TrafficRecord = Infer<typeof TrafficRecord>;

export const WebcamRecord = lazy(() =>
  record({
    id: text('Identifier of the camera in the feed'),
    name: text('Camera name as the feed gives it'),
    road: text('Motorway, e.g. A1'),
    direction: text('Viewing direction, e.g. "Blickrichtung Dortmund"'),
    image_url: text('Still image URL (operator server)'),
    link_url: text('Live stream or page URL (operator server)'),
    operator: text('Operator (usually the state road authority), e.g. NRW'),
    lat: lat(),
    lon: lon(),
    distance_km: num('Distance from the city point (register coordinates)', 'km'),
    raw: raw("The feed's own fields of the camera (camelCase, unchanged)"),
  }),
);
export type WebcamRecord = Infer<typeof WebcamRecord>;

/** Traffic state classes, one vocabulary for every flow feed. */
export const FLOW_STATES = ['free', 'dense', 'slow', 'congested'] as const;
export type FlowState = (typeof FLOW_STATES)[number];

export const FlowSegment = lazy(() =>
  record({
    id: text('Segment id of the feed'),
    state: oneOf(FLOW_STATES, 'Traffic state: free, dense, slow or congested; null when the feed gives a code this service does not know'),
    road_class: text('Road class as the feed names it'),
    lat: lat(),
    lon: lon(),
    observed_at: time('Time of the traffic state'),
    geometry: Geometry(),
    raw: raw("The feed's own attributes where its state is a numeric code (Köln: auslastung, tendenz unchanged); null where the feed names its class"),
  }),
);
export type FlowSegment = Infer<typeof FlowSegment>;

const stateCounts = lazy(() =>
  record(
    {
      free: count('Segments with free-flowing traffic'),
      dense: count('Segments with dense traffic'),
      slow: count('Segments with slow (stop-and-go) traffic'),
      congested: count('Segments with congestion'),
    },
    'Road segments per traffic state in the whole network',
  ),
);

export const TrafficFlowRecord = lazy(() =>
  record({
    segments_total: count('Road segments the feed reports'),
    counts: stateCounts(),
    congested_share_pct: num('Share of segments that are slow or congested', '%'),
    segments: list(FlowSegment(), 'Segments that are not free-flowing: congested first, then slow, then dense (capped)'),
    segments_truncated: z.boolean().meta({ description: 'More non-free segments exist than are listed' }),
  }),
);
export type TrafficFlowRecord = Infer<typeof TrafficFlowRecord>;

export const TrafficSituationRecord = lazy(() =>
  record({
    segments_total: count('Road segments in the snapshot'),
    by_state: record(
      {
        fliessend: count('Segments in state "fliessend" (free-flowing)'),
        dicht: count('Segments in state "dicht" (dense)'),
        zaeh: count('Segments in state "zäh" (slow)'),
        gestaut: count('Segments in state "gestaut" (congested)'),
      },
      "Segments per state class of the city's traffic situation map (the feed's class names)",
    ),
    congested: list(FlowSegment(), 'The congested segments (state class "gestaut"), capped'),
    congested_truncated: z.boolean().meta({ description: 'More congested segments exist than are listed' }),
  }),
);
export type TrafficSituationRecord = Infer<typeof TrafficSituationRecord>;

export const CountingValue = lazy(() =>
  record({
    index: text('Index of the value at its site (the static site table says which lane or vehicle class it is)'),
    kind: oneOf(['flow', 'speed', 'other'] as const, 'What was measured: flow (vehicles per hour), speed or another value'),
    vehicle_flow_per_hour: num('Vehicles (or bicycles) per hour', 'veh/h'),
    average_speed_kmh: num('Average speed', 'km/h'),
  }),
);
export type CountingValue = Infer<typeof CountingValue>;

export const CountingStation = lazy(() =>
  record({
    id: text('Measurement site id of the feed (the dynamic feed names sites by id only)'),
    measured_at: time('Time of the measurement'),
    vehicle_flow_per_hour: num('Sum of the flow values of the site', 'veh/h'),
    average_speed_kmh: num('Mean of the speed values of the site', 'km/h'),
    values: list(CountingValue(), 'The single values of the site, in feed order'),
  }),
);
export type CountingStation = Infer<typeof CountingStation>;

export const LowEmissionZone = lazy(() =>
  record({
    id: text('Situation record id of the feed'),
    situation_type: text('DATEX II situation record type (xsi:type) the city publishes the zone as'),
    name: text('Name or headline of the zone (first comment line)'),
    rules: list(z.string(), "The feed's comment lines: who may enter, exemptions, sticker rules (German)"),
    start: time('Start of validity'),
    end: time('End of validity; null when open'),
    lat: lat(),
    lon: lon(),
    raw: raw("The feed's own DATEX II fields of the record, in snake_case"),
  }),
);
export type LowEmissionZone = Infer<typeof LowEmissionZone>;
