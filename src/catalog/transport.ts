import type { DataType } from '../core/data-type.ts';
import { RAIL_TYPES } from './transport-rail.ts';
import { TRANSIT_TYPES } from './transport-transit.ts';
import { DEPARTURE_TYPES } from './transport-departures.ts';

/** Transport and mobility: national rail, the nationwide GTFS feeds and the cities' own departure feeds. */
export const TRANSPORT_TYPES: DataType[] = [...RAIL_TYPES, ...TRANSIT_TYPES, ...DEPARTURE_TYPES];
