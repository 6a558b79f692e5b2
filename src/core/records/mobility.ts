import { bool, date, int, lat, list, lon, num, oneOf, postCode, record, text, time, z, lazy, type Infer } from '../schema.ts';

/** One car park (or park-and-ride site) with its capacity and, where the feed has it, live free spaces. */
export const ParkingSiteRecord = lazy(() =>
  record({
    id: z.string().meta({ description: 'Id of the site: the feed id prefixed with the source id' }),
    name: text('Name of the car park as the feed gives it'),
    street: text('Street'),
    house_number: text('House number'),
    post_code: postCode(),
    place: text('Place (municipality) as the feed names it'),
    lat: lat(),
    lon: lon(),
    capacity: int('Total number of spaces', 'spaces'),
    free_spaces: int('Free spaces at updated_at; null when the feed has no current live value for the site', 'spaces'),
    occupancy_share: num('Occupied share of the capacity, 0 (empty) to 1 (full), from free_spaces and capacity', 'share'),
    state: oneOf(['open', 'closed', 'unknown'], 'Opening state the feed reports; unknown when it reports none or a fault'),
    live: bool('The feed carries a live free-space count for this site'),
    updated_at: time('Time of the live value (feed time, Europe/Berlin)'),
    source: z.string().meta({ description: 'Id of the feed the site comes from' }),
    license: z.string().meta({ description: 'Licence of that feed' }),
  }),
);
export type ParkingSiteRecord = Infer<typeof ParkingSiteRecord>;

/** One fuel station with its current prices (Tankerkönig / MTS-K). */
export const FuelStationRecord = lazy(() =>
  record({
    id: z.string().meta({ description: 'Tankerkönig station id (UUID)' }),
    name: text('Station name'),
    brand: text('Brand'),
    street: text('Street (house number split off where the feed had it inside the street)'),
    house_number: text('House number'),
    post_code: postCode(),
    place: text('Place'),
    lat: lat(),
    lon: lon(),
    distance_km: num('Distance from the city point', 'km'),
    is_open: bool('Open at the time of the query'),
    e5_eur: num('Price of Super E5; null when the station sells none or reports none', 'EUR/l'),
    e10_eur: num('Price of Super E10; null when the station sells none or reports none', 'EUR/l'),
    diesel_eur: num('Price of diesel; null when the station sells none or reports none', 'EUR/l'),
  }),
);
export type FuelStationRecord = Infer<typeof FuelStationRecord>;

/** A park-and-ride site: a parking site plus its distance from the city point (P+R sites lie outside the centre). */
export const ParkAndRideRecord = lazy(() =>
  record({
    ...ParkingSiteRecord().shape,
    distance_km: num('Distance from the city point', 'km'),
  }),
);
export type ParkAndRideRecord = Infer<typeof ParkAndRideRecord>;

/** One elevator or escalator of a DB station with its current operating state (DB FaSta). */
export const StationFacilityRecord = lazy(() =>
  record({
    equipment_number: z.string().meta({ description: 'DB equipment number of the facility' }),
    type: oneOf(['elevator', 'escalator'], 'Kind of facility'),
    description: text('Where it leads, as DB describes it (e.g. "zu Gleis 1")'),
    state: oneOf(['active', 'inactive', 'unknown'], 'Operating state: active (in service), inactive (out of service) or unknown (no monitoring data)'),
    state_explanation: text('DB explanation of the state as sent (e.g. available, not available, under maintenance)'),
    station_number: int('DB station number (StaDa `number`, not the EVA number)'),
    operator: text('Operator of the facility'),
    lat: lat(),
    lon: lon(),
    distance_km: num('Distance from the city point', 'km'),
  }),
);
export type StationFacilityRecord = Infer<typeof StationFacilityRecord>;

const sharingSystem = lazy(() =>
  record({
    system_id: z.string().meta({ description: 'GBFS system_id' }),
    name: text('System name'),
    operator: text('Operator'),
    license: text('Licence of the feed (system_information license_id or license_url)'),
    stations: z.number().int().meta({ description: 'Stations of the system within the city radius' }),
    vehicles_available: z.number().int().meta({ description: 'Vehicles available at those stations' }),
    free_floating_vehicles: z.number().int().meta({ description: 'Rentable vehicles parked outside stations within the city radius' }),
    updated_at: time('Feed time (GBFS last_updated of the station status)'),
  }),
);

const sharingStation = lazy(() =>
  record({
    system_id: z.string().meta({ description: 'GBFS system_id of the station' }),
    station_id: z.string().meta({ description: 'GBFS station_id' }),
    name: text('Station name'),
    lat: lat(),
    lon: lon(),
    capacity: int('Docks or places of the station', 'places'),
    vehicles_available: int('Vehicles available for rent now', 'vehicles'),
    docks_available: int('Free places to return a vehicle', 'places'),
    is_renting: bool('The station rents vehicles now'),
    last_reported: time('Time the station last reported its status'),
    distance_km: num('Distance from the city point', 'km'),
  }),
);

const sharingVehicle = lazy(() =>
  record({
    system_id: z.string().meta({ description: 'GBFS system_id of the vehicle' }),
    vehicle_id: z.string().meta({ description: 'GBFS bike_id (rotated by the operator for privacy)' }),
    vehicle_type_id: text('GBFS vehicle_type_id'),
    lat: lat(),
    lon: lon(),
  }),
);

/** Bike/vehicle sharing systems of the city from their GBFS feeds. */
export const SharingRecord = lazy(() =>
  record({
    aggregates: record(
      {
        systems: z.number().int().meta({ description: 'Systems with at least one station or vehicle in the city' }),
        stations: z.number().int().meta({ description: 'Stations within the city radius' }),
        vehicles_available: z.number().int().meta({ description: 'Vehicles available at those stations plus free-floating ones' }),
      },
      'Totals over every system',
    ),
    systems: list(sharingSystem(), 'The systems, each with its licence'),
    stations: list(sharingStation(), 'Stations within the city radius, nearest first (pages with limit/offset)'),
    free_floating: list(sharingVehicle(), 'Rentable vehicles outside stations within the city radius'),
  }),
);
export type SharingRecord = Infer<typeof SharingRecord>;

const bikeParkingItem = lazy(() =>
  record({
    name: text('Name (OSM name tag), mostly absent'),
    lat: lat(),
    lon: lon(),
    capacity: int('Bicycles it holds (OSM capacity)', 'bicycles'),
    covered: bool('Roofed (OSM covered=yes/no)'),
    type: text('Kind of stand as OSM tags it (bicycle_parking: stands, wall_loops, shed, building, lockers ...)'),
    access: text('Who may use it (OSM access), e.g. yes, customers, private'),
    fee: bool('Parking costs a fee (OSM fee=yes/no)'),
    osm_type: oneOf(['node', 'way', 'relation'], 'OSM element type (ways and relations are placed at their centre)'),
    osm_id: z.number().int().meta({ description: 'OSM element id' }),
  }),
);

/** Bicycle parking mapped in OpenStreetMap within the city boundary. */
export const BikeParkingRecord = lazy(() =>
  record({
    total_available: z.number().int().meta({ description: 'All bicycle parking objects mapped within the city boundary (the true total)' }),
    sample_size: z.number().int().meta({ description: 'Objects in the stored sample' }),
    sample_capacity: z.number().int().meta({ description: 'Sum of the capacity tags in the sample (objects without one count 0)', unit: 'bicycles' }),
    covered_share: num('Share of the sample objects tagged covered=yes among those with a covered tag, 0 to 1', 'share'),
    truncated: z.boolean().meta({ description: 'The sample holds fewer objects than total_available' }),
    items: list(bikeParkingItem(), 'The sample, named ones first (pages with limit/offset)'),
  }),
);
export type BikeParkingRecord = Infer<typeof BikeParkingRecord>;

const bikeCountDay = lazy(() =>
  record({
    date: z.iso.date().meta({ description: 'Calendar day (Europe/Berlin)' }),
    count: z.number().int().meta({ description: 'Bicycles counted that day (both directions)', unit: 'bicycles' }),
  }),
);

/** One permanent bicycle counting station with its latest day and the seven days up to it. */
export const BikeCountStationRecord = lazy(() =>
  record({
    id: z.string().meta({ description: 'Id of the station: the station id of the city feed prefixed with the feed id' }),
    name: text('Name of the station as the city publishes it'),
    lat: lat(),
    lon: lon(),
    latest_day: date('Newest complete day the city has published for the station'),
    latest_day_count: int('Bicycles counted on latest_day', 'bicycles'),
    last_7_days_total: int('Bicycles counted on the published days of the seven days ending with latest_day', 'bicycles'),
    days_counted: z.number().int().meta({ description: 'Days with a published count among those seven (7 when none is missing)' }),
    last_7_days: list(bikeCountDay(), 'The published days of the seven days ending with latest_day, oldest first'),
    resolution: oneOf(['hour', 'day'], 'Resolution the city publishes (hourly counts are summed to days)'),
    source: z.string().meta({ description: 'Id of the city feed the station comes from' }),
    license: z.string().meta({ description: 'Licence of that feed' }),
  }),
);
export type BikeCountStationRecord = Infer<typeof BikeCountStationRecord>;

/** What a mobility hub can offer, in the order `modes` lists them. */
export const MOBILITY_MODES = [
  'carsharing',
  'taxi',
  'charging',
  'bike_sharing',
  'e_scooter_sharing',
  'cargo_bike_sharing',
  'moped_sharing',
  'bus',
  'tram',
  'subway',
  'suburban_rail',
] as const;
export type MobilityMode = (typeof MOBILITY_MODES)[number];

/** One mobility hub (Mobilitätspunkt): shared-mobility parking, car-sharing and taxi spaces, charging, public transport at hand. */
export const MobilityPointRecord = lazy(() =>
  record({
    id: z.string().meta({ description: 'Id of the mobility point as the city numbers it (mp_id)' }),
    name: text('Name of the mobility point'),
    address: text('Address or location description as the city gives it'),
    lat: lat(),
    lon: lon(),
    modes: z
      .array(z.enum(MOBILITY_MODES))
      .meta({ description: 'Offered modes, derived from the fields below (spaces or charging points above 0, areas and stops present)' }),
    carsharing_spaces: int('Parking spaces reserved for car-sharing', 'spaces'),
    taxi_spaces: int('Taxi spaces (0 where the city answers Nein)', 'spaces'),
    charging_points_ac: int('AC charging points', 'charging points'),
    charging_points_dc: int('DC charging points', 'charging points'),
    bike_sharing_area: bool('Parking area for shared bicycles (gaf_bs)'),
    e_scooter_sharing_area: bool('Parking area for shared e-scooters (gaf_ts, Tretroller)'),
    cargo_bike_sharing_area: bool('Parking area for shared cargo bikes (gaf_ls, Lastenrad)'),
    moped_sharing_area: bool('Parking area for shared mopeds (gaf_ms, Motorroller)'),
    bus: bool('A bus stop is at hand'),
    tram: bool('A tram stop is at hand'),
    subway: bool('An U-Bahn station is at hand'),
    suburban_rail: bool('An S-Bahn station is at hand'),
    bike_service_station: bool('Bicycle service station (tools)'),
    bike_pump: bool('Bicycle pump'),
    edited_on: date('Day the city last edited the record (bearbeitung_datum)'),
  }),
);
export type MobilityPointRecord = Infer<typeof MobilityPointRecord>;

const kerbsideGroup = lazy(() =>
  record({
    group: z.string().meta({
      description: 'Parking rule group as the city names it (parkregel_gruppe), e.g. Bewohnerparken, Mischparken, Kurzzeitparken, Absolutes Halteverbot',
    }),
    segments: z.number().int().meta({ description: 'Kerbside sections with this rule group' }),
    spaces: z.number().int().meta({ description: 'Spaces on those sections (sections without a count add none)', unit: 'spaces' }),
  }),
);

const parkingZone = lazy(() =>
  record({
    name: z.string().meta({ description: 'Name of the parking management zone' }),
    status: text('State of the zone as the city gives it (e.g. in Betrieb)'),
    measure: text('Kind of zone (massnahme, e.g. Lizenzgebiet in Betrieb)'),
    enforcement: text('Who enforces the rules (ueberwachung)'),
    opened_on: date('Day the zone opened'),
    link: text('Link to the zone map of the city'),
    segments: z.number().int().meta({ description: 'Kerbside sections assigned to the zone' }),
    spaces: z.number().int().meta({ description: 'Spaces on those sections', unit: 'spaces' }),
  }),
);

/** On-street parking of a city: kerbside sections with their spaces and rules, and the parking management zones. */
export const OnStreetParkingRecord = lazy(() =>
  record({
    segments: z.number().int().meta({ description: 'Kerbside sections the city lists' }),
    spaces: z.number().int().meta({ description: 'Spaces on all sections (sections without a count add none)', unit: 'spaces' }),
    by_rule_group: list(kerbsideGroup(), 'Sections and spaces per parking rule group, most spaces first'),
    zones: list(parkingZone(), 'Parking management zones by name, with the sections assigned to each'),
    outside_zones: record(
      {
        segments: z.number().int().meta({ description: 'Sections assigned to no zone' }),
        spaces: z.number().int().meta({ description: 'Spaces on those sections', unit: 'spaces' }),
      },
      'Sections outside every parking management zone',
    ),
  }),
);
export type OnStreetParkingRecord = Infer<typeof OnStreetParkingRecord>;
