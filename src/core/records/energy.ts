import { date, int, list, lat, lon, num, oneOf, postCode, record, text, time, z, lazy, type Infer } from '../schema.ts';

const station = lazy(() =>
  record({
    id: z.string().meta({ description: 'Ladeeinrichtungs-ID of the register' }),
    operator: text('Operator'),
    name: text('Display name of the station'),
    status: text('Operating status as the register states it (e.g. In Betrieb)'),
    charging_type: oneOf(['normal', 'fast'], 'Normal or fast charging station (register classification)'),
    charging_points: int('Number of charging points'),
    power_kw: num('Rated power of the station', 'kW'),
    commissioning_date: date('Date of commissioning'),
    street: text('Street'),
    house_number: text('House number'),
    address_supplement: text('Address supplement'),
    post_code: postCode(),
    place: text('Place (Ort) as the register states it'),
    district: text('Kreis/kreisfreie Stadt as the register states it'),
    state: text('Bundesland'),
    lat: lat(),
    lon: lon(),
    connector_types: list(z.string(), 'Distinct connector types of all charging points'),
    connectors: list(
      record({
        types: list(z.string(), 'Connector types of the charging point'),
        power_kw: list(z.number(), 'Rated power per connector (kW)'),
        evse_id: text('EVSE id of the charging point'),
      }),
      'Charging points with their connectors, as the register lists them (up to six)',
    ),
  }),
);

export const ChargingRecord = lazy(() =>
  record({
    edition_date: date('Date of the register edition the precompute read'),
    aggregates: record(
      {
        stations: z.number().int().meta({ description: 'Stations of the city' }),
        charging_points: z.number().int().meta({ description: 'Charging points of all stations' }),
        total_power_kw: z.number().meta({ description: 'Sum of the rated power of all stations', unit: 'kW' }),
        fast_stations: z.number().int().meta({ description: 'Fast charging stations' }),
        normal_stations: z.number().int().meta({ description: 'Normal charging stations' }),
      },
      'Totals over every matched station (not only the page)',
    ),
    points: list(station(), 'The stations, by post code, street and id (pages with limit/offset)'),
  }),
);
export type ChargingRecord = Infer<typeof ChargingRecord>;

const point = lazy(() =>
  record({
    evse_id: z.string().meta({ description: 'EVSE id (OCPI evse_id, else its uid)' }),
    location_id: z.string().meta({ description: 'OCPI location id' }),
    name: text('Location name'),
    operator: text('Operator name'),
    street: text('Street address as OCPI gives it (street with house number)'),
    post_code: postCode(),
    place: text('City as OCPI names it'),
    lat: lat(),
    lon: lon(),
    status: oneOf(['available', 'occupied', 'out_of_order', 'unknown'], 'Occupancy bucket of the OCPI status'),
    upstream_status: text('OCPI EVSE status as sent, e.g. AVAILABLE, CHARGING'),
    power_kw: num('Highest maximum power of its connectors', 'kW'),
    connector_standards: list(z.string(), 'OCPI connector standards, e.g. IEC_62196_T2'),
    last_updated_at: time('When the operator last updated the status'),
  }),
);

export const ChargingStatusAggregates = lazy(() =>
  record(
    {
      total: z.number().int().meta({ description: 'Charging points with a live status' }),
      available: z.number().int().meta({ description: 'Available points' }),
      occupied: z.number().int().meta({ description: 'Occupied points (charging, blocked, reserved)' }),
      out_of_order: z.number().int().meta({ description: 'Points out of order or inoperative' }),
      unknown: z.number().int().meta({ description: 'Points with an unknown status' }),
      last_update: time('Newest status update among the points'),
    },
    'Counts over every point of the city (not only the page)',
  ),
);
export type ChargingStatusAggregates = Infer<typeof ChargingStatusAggregates>;

export const ChargingStatusRecord = lazy(() =>
  record({
    aggregates: ChargingStatusAggregates(),
    points: list(point(), 'One entry per charging point (EVSE) (pages with limit/offset)'),
  }),
);
export type ChargingStatusRecord = Infer<typeof ChargingStatusRecord>;

/**
 * One refill point of an operator's DATEX II V3 AFIR status publication, joined with the static
 * table where the operator publishes one (else the static fields are null, static_joined false).
 */
export const LiveChargePoint = lazy(() =>
  record({
    id: z.string().meta({ description: 'Refill point id of the status publication (often an EVSE id, e.g. DE*EBW*E914082*2)' }),
    station_id: text('Id of the energy infrastructure station it belongs to'),
    site_id: text('Id of the energy infrastructure site it belongs to'),
    status: oneOf(['available', 'occupied', 'out_of_order', 'unknown'], 'Occupancy bucket of the status'),
    upstream_status: text('DATEX II refill point status as sent, e.g. available, charging, faulted'),
    last_updated_at: time('When the operator last updated the status'),
    static_joined: z.boolean().meta({ description: 'The point was found in the static table: the fields below come from it' }),
    name: text('Site name (static table)'),
    operator: text('Operator name (static table)'),
    street: text('Street (static table)'),
    house_number: text('House number (static table)'),
    post_code: postCode(),
    place: text('Place (static table)'),
    lat: lat(),
    lon: lon(),
    power_kw: num('Highest available charging power of the point (static table)', 'kW'),
    plug_types: list(z.string(), 'DATEX II connector types of the point, e.g. iec62196T2 (static table; empty without it)'),
  }),
);
export type LiveChargePoint = Infer<typeof LiveChargePoint>;
