import type { DataType } from '../../core/data-type.ts';
import { RAIL_TYPES } from './rail.ts';
import { TRANSIT_TYPES } from './transit.ts';
import { DEPARTURE_TYPES } from './departures.ts';
import { ROAD_TYPES } from './roads.ts';
import { LIVE_TRAFFIC_TYPES } from './live-traffic.ts';
import { MOBILITY_TYPES } from './mobility.ts';

/**
 * Transport and mobility, the largest group, one file per kind: national rail, the nationwide GTFS
 * feeds, the cities' own departure feeds, roads, the cities' live traffic feeds through the
 * Mobilithek, and parking, fuel, sharing and bicycles.
 */
export const TRANSPORT_TYPES: DataType[] = [...RAIL_TYPES, ...TRANSIT_TYPES, ...DEPARTURE_TYPES, ...ROAD_TYPES, ...LIVE_TRAFFIC_TYPES, ...MOBILITY_TYPES];
