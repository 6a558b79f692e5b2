import { dataType, type DataType } from '../core/data-type.ts';
import { TRAFFIC_REPORTS_HANNOVER } from '../core/records/roads.ts';
import { CountingStation, LowEmissionZone, RoadEvent } from '../core/records/roads.ts';
import { MOBILITHEK_HANNOVER, MOBILITHEK_KIEL, MOBILITHEK_KOELN_LEZ } from '../sources/mobilithek/sources.ts';
import {
  CITY_RADIUS_KM,
  PARKING_FEEDS,
  hannoverTrafficReports,
  kielCountingStations,
  koelnLowEmissionZone,
  liveParking,
} from '../sources/mobilithek/adapters.ts';
import { ParkingSiteRecord } from '../core/records/mobility.ts';
import { PARKING_MAX_AGE_HOURS } from '../sources/city-parking/sites.ts';
import { summariseParking } from '../sources/city-parking/adapters.ts';

/** City live feeds that exist only as Mobilithek subscriptions (machine certificate + subscription id). Declarations only. */

const LIVE_CACHE = { freshSeconds: 240, staleSeconds: 1800 };

/** One adapter per city feed; the city picks it (each city has its own subscriptions). */
/** Frankfurt's feed is the type's main source; Magdeburg and Wuppertal are variants with their own subscriptions. */
const [PARKING_MAIN, ...PARKING_OTHERS] = Object.entries(PARKING_FEEDS).sort(([a], [b]) => a.localeCompare(b));
const LIVE = { refreshSeconds: 240 };
const MOBILITHEK =
  "Pulled from the Mobilithek (the national access point) with the operator's machine certificate (mutual TLS) and a subscription; " +
  'without MOBILITHEK_CERT_PATH, MOBILITHEK_CERT_PASSWORD and the subscription id the answer is disabled (meta.disabled_reason names the ' +
  'missing setting). DATEX II v2 is read as a stream; DOCTYPE/ENTITY declarations are refused. An active subscription without data ' +
  '(HTTP 422 or an empty body) is no_data.';

export const MOBILITHEK_TYPES: DataType[] = [
  dataType({
    type: TRAFFIC_REPORTS_HANNOVER.type,
    label: 'Verkehrsmeldungen Hannover',
    label_en: 'Traffic reports Hanover',
    group: 'transport',
    summary: "Hanover's live traffic messages: roadworks, closures and incidents of the city (DATEX II via Mobilithek)",
    description: `${MOBILITHEK} Situation records of the Landeshauptstadt Hannover within ${CITY_RADIUS_KM} km of the city point, in the shared event vocabulary.`,
    path: '/api/v1/live/hannover/traffic-reports',
    aliases: ['/api/v1/live/hannover/verkehrsmeldungen'],
    fixedCity: 'hannover',
    record: RoadEvent,
    list: true,
    cache: LIVE_CACHE,
    live: LIVE,
    example: { city: 'hannover' },
    reads: [{ source: MOBILITHEK_HANNOVER, adapter: hannoverTrafficReports }],
  }),
  dataType({
    type: 'counting-stations',
    label: 'Dauerzählstellen Kiel',
    label_en: 'Counting stations Kiel',
    group: 'transport',
    summary: "Kiel's permanent vehicle and bicycle counters: flow per site and value (DATEX II via Mobilithek)",
    description: `${MOBILITHEK} The dynamic feed names sites by id only; which lane or vehicle class (car or bicycle) a value counts is in the operator's static site table.`,
    path: '/api/v1/live/kiel/counting-stations',
    aliases: ['/api/v1/live/kiel/zaehlstellen'],
    fixedCity: 'kiel',
    record: CountingStation,
    list: true,
    cache: LIVE_CACHE,
    live: LIVE,
    example: { city: 'kiel' },
    reads: [{ source: MOBILITHEK_KIEL, adapter: kielCountingStations }],
  }),
  dataType({
    type: 'low-emission-zone',
    label: 'Umweltzone Köln',
    label_en: 'Low-emission zone Cologne',
    group: 'transport',
    summary: "Cologne's low-emission zone: the zone, its entry rules and validity as the city publishes them (DATEX II via Mobilithek)",
    description: `${MOBILITHEK} One item per situation record of the city's low-emission-zone offer; the rules are the record's comment lines.`,
    path: '/api/v1/live/koeln/low-emission-zone',
    aliases: ['/api/v1/live/koeln/umweltzone'],
    fixedCity: 'koeln',
    record: LowEmissionZone,
    list: true,
    cache: { freshSeconds: 3600, staleSeconds: 86400 },
    live: { refreshSeconds: 3600 },
    example: { city: 'koeln' },
    reads: [{ source: MOBILITHEK_KOELN_LEZ, adapter: koelnLowEmissionZone }],
  }),
  dataType({
    type: 'live-parking',
    history: {
      summarise: summariseParking,
      fields: [
        { name: 'free_spaces', path: 'free_spaces', unit: 'spaces' },
        { name: 'capacity', path: 'capacity', unit: 'spaces' },
      ],
    },
    label: 'Parkhausbelegung live',
    label_en: 'Live parking',
    group: 'transport',
    summary: "Car parks with capacity, live free spaces and occupancy share from the city's own DATEX II parking publication (via Mobilithek)",
    description:
      `${MOBILITHEK.replace('the subscription id', 'the two subscription ids of the city (static table and dynamic status)')} ` +
      'Frankfurt am Main publishes DATEX II V3 (parkingRecord joined with parkingRecordStatus), Magdeburg and Wuppertal the V2 ' +
      'ParkingFacility profile (parkingFacility joined with parkingFacilityStatus); sites are joined by id, a site missing on one side keeps ' +
      "null fields (meta.status_records_without_static); without a readable static table the live counts come without name, capacity and position (meta.static_table). occupancy_share = (capacity - free_spaces) / capacity, else the feed's own " +
      `occupancy normalised to 0..1 (Frankfurt and Magdeburg send percent, Wuppertal a share). Freshness guard as for parking: a feed whose ` +
      `newest value is older than ${PARKING_MAX_AGE_HOURS} h answers no_data with the reason; a single older site has free_spaces null.`,
    path: '/api/v1/live/{city}/parking',
    record: ParkingSiteRecord,
    list: true,
    cache: LIVE_CACHE,
    live: LIVE,
    coverage: { cities: [PARKING_MAIN![0]], note: 'cities whose live parking publication is a Mobilithek offer this service reads' },
    example: { city: 'frankfurt-am-main' },
    reads: [
      { source: PARKING_MAIN![1].source, adapter: liveParking(PARKING_MAIN![1]) },
      ...PARKING_OTHERS.map(([slug, feed]) => ({ cities: [slug], source: feed.source, adapter: liveParking(feed) })),
    ],
  }),
];
