import { GTFS_RT_POLLER } from '../../jobs/gtfs/rt-poller.ts';
import { GTFS_STATIC_JOB } from '../../jobs/gtfs/static.ts';
import { dataType, type DataType } from '../../core/data-type.ts';
import type { ParamDecl } from '../../core/params.ts';
import { RouteStatusRecord, TransitDeparture, TransitRecord, TripRecord } from '../../core/records/transit.ts';
import { GTFS_DE } from '../../sources/gtfs/source.ts';
import { WINDOW_AHEAD_S, WINDOW_PAST_S } from '../../sources/gtfs/board-read.ts';
import { REFRESH_SECONDS, transitDepartures, transitRouteStatus, transitSummary, transitTrip } from '../../sources/gtfs/adapters.ts';

/**
 * Live transit from the nationwide gtfs.de feeds. Every type reads what the GTFS-RT poller (and
 * the static schedule job) stored; none calls the upstream on a request. Declarations only.
 */
const ID = /^[\w:.-]{1,200}$/;
/** What every transit type reads: the static schedule index and the realtime indexes the poller writes. */
const JOBS = [GTFS_STATIC_JOB, GTFS_RT_POLLER];

const idParam = (name: string, what: string): ParamDecl => ({
  name,
  in: 'path',
  type: 'string',
  required: true,
  pattern: ID,
  patternHint: 'a GTFS id of letters, digits and _ : . - (at most 200 characters)',
  description: what,
});

/** The GTFS fixture feed models Stuttgart: U5 trip 1910001 on route 28001_400 runs whenever the demo does. */
const EXAMPLE_CITY = 'stuttgart';

export const TRANSIT_TYPES: DataType[] = [
  dataType({
    type: 'transit',
    history: {
      fields: [
        { name: 'trip_updates', path: 'realtime.trip_updates', unit: 'trip updates' },
        { name: 'alerts', path: 'realtime.alerts', unit: 'alerts' },
        { name: 'entities', path: 'realtime.entities', unit: 'entities' },
      ],
    },
    label: 'ÖPNV',
    label_en: 'Public transit',
    group: 'transport',
    summary:
      "The city's public transit in the nationwide GTFS feeds: its stops, the state of the live feed and links to live departures, trips and route status (Tier B)",
    description: 'Reads the static schedule index (job gtfs-static) and the realtime feed the GTFS-RT poller stored.',
    record: TransitRecord,
    cache: 'stored',
    example: { city: EXAMPLE_CITY },
    sources: [{ role: 'primary', source: GTFS_DE, adapter: transitSummary, jobs: JOBS }],
  }),
  dataType({
    type: 'transit-departures',
    label: 'ÖPNV-Abfahrten (Echtzeit)',
    label_en: 'Transit departures (live)',
    group: 'transport',
    tool: 'departures',
    summary: 'Live departures at the stops of the city from the nationwide GTFS-Realtime feed, with planned and expected times and delay (Tier B)',
    description: `Stops of the city are those whose DELFI id carries the city's district key (de:<AGS5>:…, district-free cities) or that lie within a circle of the city's area around its register point. Departures expected from ${WINDOW_PAST_S / 60} minutes ago to ${WINDOW_AHEAD_S / 60} minutes ahead. trip_id and route_id are volatile ids for the trip and route-status endpoints.`,
    path: '/api/v1/live/{city}/transit/departures',
    params: [
      {
        name: 'stop_id',
        type: 'string',
        pattern: ID,
        patternHint: 'a GTFS stop id',
        description: 'Only departures of this stop (a stop_id from an earlier answer)',
      },
    ],
    record: TransitDeparture,
    list: true,
    cache: 'stored',
    live: { refreshSeconds: REFRESH_SECONDS },
    example: { city: EXAMPLE_CITY },
    sources: [{ role: 'primary', source: GTFS_DE, adapter: transitDepartures, jobs: JOBS }],
  }),
  dataType({
    type: 'transit-trip',
    label: 'ÖPNV-Fahrt (Echtzeit)',
    label_en: 'Transit trip (live)',
    group: 'transport',
    tool: 'trip',
    summary: 'One trip from the live departures: delay, stop updates with names and times, and an estimated position interpolated between stops (Tier B)',
    path: '/api/v1/live/{city}/transit/trips/{trip_id}',
    params: [idParam('trip_id', 'Volatile trip id from the trip_id field of the departures endpoint')],
    record: TripRecord,
    cache: 'stored',
    live: { refreshSeconds: REFRESH_SECONDS },
    example: { city: EXAMPLE_CITY, params: { trip_id: '1910001' } },
    sources: [{ role: 'primary', source: GTFS_DE, adapter: transitTrip, jobs: JOBS }],
  }),
  dataType({
    type: 'transit-route-status',
    label: 'ÖPNV-Linienstatus (Echtzeit)',
    label_en: 'Transit route status (live)',
    group: 'transport',
    tool: 'route_status',
    summary: 'Active trips, average and maximum delay of one route in the live feed (Tier B)',
    path: '/api/v1/live/{city}/transit/routes/{route_id}/status',
    params: [idParam('route_id', 'Volatile route id from the route_id field of the departures endpoint')],
    record: RouteStatusRecord,
    cache: 'stored',
    live: { refreshSeconds: REFRESH_SECONDS },
    example: { city: EXAMPLE_CITY, params: { route_id: '28001_400' } },
    sources: [{ role: 'primary', source: GTFS_DE, adapter: transitRouteStatus, jobs: JOBS }],
  }),
];
