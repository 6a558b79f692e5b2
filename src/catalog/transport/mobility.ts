import { dataType, type DataType } from '../../core/data-type.ts';
import { bikeCountsPrecompute } from '../../jobs/bike-counts-precompute.ts';
import { POIS_PRECOMPUTE_JOB } from '../../jobs/pois-precompute.ts';
import {
  BikeCountStationRecord,
  MobilityPointRecord,
  OnStreetParkingRecord,
  FuelStationRecord,
  ParkAndRideRecord,
  ParkingSiteRecord,
  SharingRecord,
  StationFacilityRecord,
  BikeParkingRecord,
} from '../../core/records/mobility.ts';
import { DB_FASTA } from '../../sources/db-fasta/source.ts';
import { OVERPASS } from '../../sources/overpass/source.ts';
import { storedBikeParking } from '../../sources/overpass/bike-parking.ts';
import { ITEM_CAP } from '../../sources/overpass/stored.ts';
import { NEXTBIKE_GBFS } from '../../sources/nextbike/source.ts';
import { SHARING_CITIES, SHARING_MAX_AGE_HOURS, nextbikeSharing, summariseSharing } from '../../sources/nextbike/adapters.ts';
import { stationFacilities } from '../../sources/db-fasta/adapters.ts';
import { VRN_PARK_RIDE } from '../../sources/vrn-park-ride/source.ts';
import { PARK_RIDE_CITIES, vrnParkAndRide } from '../../sources/vrn-park-ride/adapters.ts';
import { PARK_RIDE_RADIUS_KM } from '../../sources/city-parking/park-and-ride.ts';
import { TANKERKOENIG } from '../../sources/tankerkoenig/source.ts';
import { FUEL_MAX_RADIUS_KM, FUEL_MIN_RADIUS_KM, fuelPrices, summariseFuelPrices } from '../../sources/tankerkoenig/adapters.ts';
import { FUELS } from '../../sources/tankerkoenig/list.ts';
import { PARKENDD } from '../../sources/city-parking/source.ts';
import { OWN_FEEDS, PARKAPI_ONLY_CITIES, PARKING_CITIES, cityParking, parkapiParking, summariseParking } from '../../sources/city-parking/adapters.ts';
import { PARKAPI_V3 } from '../../sources/parkapi-v3/source.ts';
import { PARKAPI_PARKING } from '../../sources/parkapi-v3/sites.ts';
import { PARKAPI_PARK_RIDE_CITIES, parkapiParkAndRide } from '../../sources/parkapi-v3/park-and-ride.ts';
import { PARKING_MAX_AGE_HOURS } from '../../sources/city-parking/sites.ts';
import { PARKING_FEEDS, liveParking } from '../../sources/mobilithek/adapters.ts';
import { MOBILITHEK } from './live-traffic.ts';

/** The Mobilithek parking feeds' cache windows (the former live-parking type's). */
const DATEX_PARKING_CACHE = { freshSeconds: 240, staleSeconds: 1800 };
import { PARKENDD_CITIES } from '../../sources/city-parking/parkendd.ts';
import { BIKE_COUNTERS } from '../../sources/bike-counters/source.ts';
import { BIKE_COUNT_CITIES, storedBikeCounts } from '../../sources/bike-counters/stored.ts';
import { MUENCHEN_GEOPORTAL } from '../../sources/muenchen-geoportal/source.ts';
import { MOBILITY_POINT_CITIES, muenchenMobilityPoints } from '../../sources/muenchen-geoportal/mobility-points.ts';
import { ONSTREET_CITIES, muenchenOnStreet } from '../../sources/muenchen-geoportal/onstreet.ts';

/**
 * Mobility: parking, park-and-ride, fuel prices, station elevators and escalators, bike sharing and
 * bicycle parking. Declarations only (adapters live in their source modules).
 */
export const MOBILITY_TYPES: DataType[] = [
  dataType({
    type: 'parking',
    history: {
      fields: [
        { name: 'free_spaces', path: 'free_spaces', unit: 'spaces' },
        { name: 'capacity', path: 'capacity', unit: 'spaces' },
      ],
    },
    label: 'Parkhäuser',
    label_en: 'Parking',
    group: 'transport',
    summary: 'Car parks with capacity, live free spaces and occupancy share from the openly licensed parking feeds of the city',
    description:
      "Direct city feeds: Freiburg im Breisgau's parking guidance WFS (dl-de/by-2-0; coordinates converted from EPSG:25832; local times " +
      "without zone read as Europe/Berlin), Karlsruhe's car park layer TBA:parkhaeuser (CC BY 4.0; only sites in Karlsruhe itself; live " +
      "counts only where the layer flags real-time data and reports no fault) and Dortmund's Opendatasoft dataset parkhauser (DL-DE/Zero 2.0). " +
      `ParkAPI v3 of MobiData BW (keyless; a source of its own with its own breaker) for the sources with a stated open licence (${Object.entries(
        PARKAPI_PARKING,
      )
        .map(([c, f]) => `${c}: ${f.map((x) => x.uid).join(', ')}`)
        .join('; ')}). Other cities through ParkenDD (ParkAPI v1, UTC times), only ` +
      `where the origin feed has an open licence (${Object.keys(PARKENDD_CITIES).join(', ')}); ParkenDD itself states no licence, so each ` +
      "site names its origin feed (source) and that feed's licence; nodata lots and counts outside 0..capacity carry free_spaces null. " +
      'A city served by several feeds gets each car park once: the feeds are merged in the order city feed, ParkAPI v3, ParkenDD, and a site ' +
      'within 30 m of one already listed, or within 250 m with a shared name word, is left out (meta.merged_sources, meta.duplicates_left_out). ' +
      `occupancy_share = (capacity - free_spaces) / capacity, 0 to 1. Freshness guard, per feed: a feed whose newest live value is older than ${PARKING_MAX_AGE_HOURS} h ` +
      '(frozen feeds exist, e.g. Köln), that lists nothing or does not answer is left out (meta.left_out_sources with the reason); with no feed ' +
      'left the answer is no_data with the reason (meta.reason, meta.feed_updated_at). A single site whose value is older than ' +
      `${PARKING_MAX_AGE_HOURS} h keeps its capacity but has free_spaces null. ` +
      `Frankfurt am Main, Magdeburg and Wuppertal publish their car parks as DATEX II through the Mobilithek, read per city: ${MOBILITHEK.replace('the subscription id', 'the two subscription ids of the city (static table and dynamic status)')} ` +
      'Frankfurt sends DATEX II V3 (parkingRecord joined with parkingRecordStatus), Magdeburg and Wuppertal the V2 ParkingFacility profile ' +
      '(parkingFacility joined with parkingFacilityStatus); sites are joined by id, a site missing on one side keeps null fields ' +
      '(meta.status_records_without_static); without a readable static table the live counts come without name, capacity and position ' +
      "(meta.static_table); occupancy from the feed's own share where capacity or free spaces are missing. " +
      'Cities without an open parking feed answer not_covered (meta.covered_cities). /api/v1/live/{city}/parking is the deprecated path of the former live-parking type.',
    record: ParkingSiteRecord,
    list: true,
    cache: { freshSeconds: 120, staleSeconds: 900 },
    live: { refreshSeconds: 120 },
    aliases: ['/api/v1/live/{city}/parking'],
    coverage: {
      cities: [...PARKING_CITIES, ...Object.keys(PARKING_FEEDS)],
      note: 'cities that publish their car park occupancy under an open licence or as a Mobilithek offer this service reads',
    },
    compare: { resource: 'parking', summarise: summariseParking, value: 'free_spaces' },
    example: { city: 'freiburg-im-breisgau' },
    sources: [
      // Elsewhere ParkenDD; cities with a feed of their own read it first; ParkAPI v3 and ParkenDD join as parts.
      { role: 'primary', source: PARKENDD, adapter: cityParking },
      { role: 'part', for: PARKING_CITIES, source: PARKAPI_V3 },
      ...Object.entries(OWN_FEEDS).map(([slug, feed]) => ({ role: 'primary' as const, for: [slug], source: feed.upstream, adapter: cityParking })),
      { role: 'part', for: Object.keys(OWN_FEEDS), source: PARKENDD },
      { role: 'primary', for: PARKAPI_ONLY_CITIES, source: PARKAPI_V3, adapter: parkapiParking },
      // DATEX II through the Mobilithek: the city's own subscriptions, polled less often (its feeds change every few minutes).
      ...Object.entries(PARKING_FEEDS).map(([slug, feed]) => ({
        role: 'primary' as const,
        for: [slug],
        source: feed.source,
        adapter: liveParking(feed),
        cache: DATEX_PARKING_CACHE,
      })),
    ],
  }),
  dataType({
    type: 'fuel-prices',
    history: {
      fields: [
        { name: 'e10_min_eur', path: 'e10_min_eur', unit: '€/l' },
        { name: 'e5_min_eur', path: 'e5_min_eur', unit: '€/l' },
        { name: 'diesel_min_eur', path: 'diesel_min_eur', unit: '€/l' },
      ],
    },
    label: 'Kraftstoffpreise',
    label_en: 'Fuel prices',
    group: 'transport',
    summary: 'Current E5, E10 and diesel prices and open state of the fuel stations around the city (Tankerkönig / MTS-K)',
    description:
      "Tankerkönig list.php around the city point within the radius of a circle of the city's area (between " +
      `${FUEL_MIN_RADIUS_KM} and ${FUEL_MAX_RADIUS_KM} km, meta.radius_km), nearest first. ?fuel=all (default) gives all three prices in one call; ` +
      '?fuel=e5|e10|diesel asks Tankerkönig for that fuel only (the other prices are null). Missing prices (false, 0, null upstream) are null; ' +
      'the post code is a five-character string (Tankerkönig sends an integer); a house number written inside the street is split off. ' +
      'Prices are in EUR per litre as the stations report them to the MTS-K. The service needs a Tankerkönig API key ' +
      '(TANKERKOENIG_API_KEY): without it the type answers disabled.',
    params: [{ name: 'fuel', type: 'string', enum: FUELS, default: 'all', description: 'Which prices to ask for: all (default), e5, e10 or diesel' }],
    record: FuelStationRecord,
    list: true,
    cache: { freshSeconds: 300, staleSeconds: 1800 },
    compare: { resource: 'fuel-prices', summarise: summariseFuelPrices, value: 'e10_min_eur' },
    // The fixture is a real diesel answer around Frankfurt's city centre.
    example: { city: 'frankfurt-am-main', params: { fuel: 'diesel' } },
    sources: [{ role: 'primary', source: TANKERKOENIG, adapter: fuelPrices }],
  }),
  dataType({
    type: 'park-and-ride',
    label: 'Park and Ride',
    label_en: 'Park and ride',
    group: 'transport',
    summary: 'Park-and-ride sites around the city with capacity and live free spaces where published (VRN sensors in Rhein-Neckar, ParkAPI v3)',
    description:
      "The VRN's P+R sensor layer (ArcGIS feature service, keyless; the publisher states no licence, hence tier C): every site within " +
      `${PARK_RIDE_RADIUS_KM} km of the city point, nearest first, with distance_km. free_spaces is the sensor count where the site has live data; ` +
      `a count older than ${PARKING_MAX_AGE_HOURS} h is dropped (free_spaces null), never shown as live. occupancy_share = (capacity - free_spaces) / capacity. ` +
      `Freiburg im Breisgau is answered by ParkAPI v3 of MobiData BW (its own source, breaker and licence): the city's P+R layers ` +
      '(freiburg_p_r_sensors, freiburg_p_r_static; dl-de/by-2-0) within the same radius; static sites keep their capacity without a count. ' +
      'München publishes no P+R occupancy feed this service reads. Other cities answer not_covered (meta.covered_cities).',
    record: ParkAndRideRecord,
    list: true,
    cache: { freshSeconds: 120, staleSeconds: 900 },
    live: { refreshSeconds: 120 },
    coverage: {
      cities: PARK_RIDE_CITIES,
      note: 'cities of the Rhein-Neckar area (VRN P+R sensors) and cities whose P+R sites ParkAPI v3 serves under an open licence',
    },
    example: { city: 'heidelberg' },
    sources: [
      { role: 'primary', source: VRN_PARK_RIDE, adapter: vrnParkAndRide },
      { role: 'primary', for: PARKAPI_PARK_RIDE_CITIES, source: PARKAPI_V3, adapter: parkapiParkAndRide },
    ],
  }),
  dataType({
    type: 'station-facilities',
    label: 'Aufzüge und Rolltreppen an Bahnhöfen',
    label_en: 'Station elevators and escalators',
    group: 'transport',
    summary: 'Elevators and escalators of the DB stations in the city with their current operating state (DB FaSta)',
    description:
      "DB Facility Status (FaSta v2): the national list of elevators and escalators (one call, cached), kept within the radius of a circle of the city's " +
      'area plus 1 km (meta.radius_km), ordered by station number. state: active (in service), inactive (out of service), unknown (DB has no monitoring ' +
      'data); meta.inactive counts the out-of-service ones. Facilities without coordinates cannot be placed and are left out. Needs the DB API Marketplace ' +
      'credentials of the station catalog (DB_CLIENT_ID, DB_API_KEY); without them the type answers disabled.',
    record: StationFacilityRecord,
    list: true,
    cache: { freshSeconds: 300, staleSeconds: 1800 },
    example: { city: 'frankfurt-am-main' },
    sources: [{ role: 'primary', source: DB_FASTA, adapter: stationFacilities }],
  }),
  dataType({
    type: 'sharing',
    history: {
      fields: [
        { name: 'vehicles_available', path: 'vehicles_available', unit: 'vehicles' },
        { name: 'stations', path: 'stations', unit: 'stations' },
      ],
    },
    label: 'Bikesharing',
    label_en: 'Bike sharing',
    group: 'transport',
    summary: "Bike-sharing stations with vehicles available and free-floating bikes in the city from the nextbike system's GBFS feed",
    description:
      "nextbike's public GBFS v2 feed of the city's system (nextbike_{code}; regional systems such as VRNnextbike serve several cities): discovery, " +
      "system_information, station_information joined with station_status, and free_bike_status, kept within the radius of a circle of the city's " +
      'area plus 1 km (meta.radius_km). Reserved or disabled bikes are not counted. Each system names its licence from system_information; a ' +
      'system without an open licence is left out and named in meta.excluded_systems. A status older than ' +
      `${SHARING_MAX_AGE_HOURS} h is no_data with the reason. Cities without a known system answer not_covered (meta.covered_cities).`,
    record: SharingRecord,
    list: 'stations',
    cache: { freshSeconds: 60, staleSeconds: 600 },
    live: { refreshSeconds: 60 },
    coverage: { cities: SHARING_CITIES, note: 'cities with a nextbike system (GBFS, CC0)' },
    compare: { resource: 'sharing', summarise: summariseSharing, value: 'vehicles_available' },
    example: { city: 'leipzig' },
    sources: [{ role: 'primary', source: NEXTBIKE_GBFS, adapter: nextbikeSharing }],
  }),
  dataType({
    type: 'bike-counts',
    label: 'Radzählstellen',
    label_en: 'Bicycle counts',
    group: 'transport',
    summary: "Permanent bicycle counting stations with the latest day's count and the seven days up to it, from the cities' open data",
    description:
      'Read from the store, never fetched on request: the nightly precompute (job bike-counts-precompute) reads each city feed. Berlin: the ' +
      'SenMVKU workbook of hourly counts (XLSX, about 18 MB; its newest Jahresdatei sheet joined with Standortdaten, DL-DE/Zero 2.0). It is ' +
      'compiled once a year after the counting year, so latest_day is then 31 December of the last year; meta.counted_until names its newest ' +
      'hour. Hamburg: the ' +
      'CSV export of the counting station An der Gurlittinsel (hourly counts summed to days; a day still being counted is left out). Leipzig: ' +
      'the daily layer of the open-data WFS (newest rows, coordinates converted from EPSG:25833; the layer lags some weeks behind). München: ' +
      "the station layer of the geoportal WFS joined by station name with the newest monthly daily files of the year's CKAN package. " +
      'Hamburg, Leipzig and München DL-DE/BY 2.0; each station names its feed (source) and licence. latest_day is the newest published day of the station (not necessarily ' +
      'yesterday); last_7_days lists the published days of the seven days ending with it (days_counted of 7). Stuttgart publishes only ' +
      'yearly totals and is not covered. Before ' +
      'the first precompute the answer is no_data; a city whose feed fails keeps its last stored stations. Other cities answer not_covered ' +
      '(meta.covered_cities).',
    record: BikeCountStationRecord,
    list: true,
    cache: 'stored',
    coverage: { cities: BIKE_COUNT_CITIES, note: 'cities that publish their permanent bicycle counting stations as open data in CSV, GeoJSON or XLSX' },
    example: { city: 'leipzig' },
    sources: [{ role: 'primary', source: BIKE_COUNTERS, adapter: storedBikeCounts, jobs: [bikeCountsPrecompute] }],
  }),
  dataType({
    type: 'mobility-points',
    label: 'Mobilitätspunkte',
    label_en: 'Mobility hubs',
    group: 'transport',
    summary: 'Mobility hubs (Mobilitätspunkte) with car-sharing and taxi spaces, charging points, shared-mobility parking and public transport at hand',
    description:
      "München's layer of Mobilitätspunkte (geoportal WFS mor_wfs:ruhver_mp_standort_point, dl-de/by-2-0; coordinates converted from " +
      'EPSG:25832), every point of the city by name: car-sharing and taxi spaces, AC and DC charging points, parking areas for shared bicycles, ' +
      'e-scooters, cargo bikes and mopeds, and whether bus, tram, U-Bahn or S-Bahn are at hand; modes lists what a point offers. ' +
      'meta.carsharing_spaces sums the car-sharing spaces. The field ods_vorhanden is left out because the city does not document it. ' +
      "Only München publishes such a layer openly; ParkAPI's park-and-ride sites are not mobility hubs. Other cities answer not_covered " +
      '(meta.covered_cities).',
    record: MobilityPointRecord,
    list: true,
    cache: { freshSeconds: 86400, staleSeconds: 7 * 86400 },
    coverage: { cities: MOBILITY_POINT_CITIES, note: 'München, the only city found publishing its mobility hubs as open data' },
    example: { city: 'muenchen' },
    sources: [{ role: 'primary', source: MUENCHEN_GEOPORTAL, adapter: muenchenMobilityPoints }],
  }),
  dataType({
    type: 'parking-onstreet',
    label: 'Parken im Straßenraum',
    label_en: 'On-street parking',
    group: 'transport',
    summary: 'On-street parking: kerbside sections with their spaces per parking rule group, and the parking management zones',
    description:
      "München's geoportal WFS (dl-de/by-2-0), attributes only: the kerbside section layer mor_wfs:ruhver_parkseiten_line (about 14,000 " +
      'sections with their spaces, rule group and zone) summed per rule group and per parking management zone, and the zone layer ' +
      'mor_wfs:ruhver_prm_gebiete_poly (name, state, kind, enforcement, opening day, link to the zone map). Rule groups are the ' +
      "city's own (Bewohnerparken, Mischparken, Kurzzeitparken, but also Absolutes Halteverbot, Carsharing, E-Parken, Behindertenparken); " +
      'the layer states no fees. Sections outside every zone are counted in outside_zones. Other cities publish no such layer under an ' +
      'open licence in a form checked so far and answer not_covered (meta.covered_cities).',
    record: OnStreetParkingRecord,
    cache: { freshSeconds: 86400, staleSeconds: 7 * 86400 },
    coverage: { cities: ONSTREET_CITIES, note: 'München, which publishes its kerbside sections and parking zones as open data' },
    example: { city: 'muenchen' },
    sources: [{ role: 'primary', source: MUENCHEN_GEOPORTAL, adapter: muenchenOnStreet }],
  }),
  dataType({
    type: 'bike-parking',
    label: 'Fahrradabstellanlagen',
    label_en: 'Bicycle parking',
    group: 'transport',
    summary: 'Bicycle parking mapped in OpenStreetMap within the city boundary (capacity, covered, kind of stand), precomputed weekly',
    description:
      'Read from the store, never fetched live: the weekly POI precompute (job pois-precompute) asks the Overpass API for amenity=bicycle_parking ' +
      `within the city's administrative area and keeps the tags capacity, covered, bicycle_parking, access and fee. total_available is the true total; ` +
      `items is a sample of at most ${ITEM_CAP} objects (pages with limit/offset); sample_capacity and covered_share describe that sample. ` +
      'Before the first precompute of the city the answer is no_data.',
    record: BikeParkingRecord,
    list: 'items',
    cache: 'stored',
    example: { city: 'berlin' },
    sources: [{ role: 'primary', source: OVERPASS, adapter: storedBikeParking, jobs: [POIS_PRECOMPUTE_JOB] }],
  }),
];
