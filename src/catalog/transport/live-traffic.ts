import { dataType, type DataType } from '../../core/data-type.ts';
import { TRAFFIC_REPORTS_HANNOVER } from '../../core/records/roads.ts';
import { CountingStation, LowEmissionZone, RoadEvent } from '../../core/records/roads.ts';
import { MOBILITHEK_HANNOVER, MOBILITHEK_KIEL, MOBILITHEK_KOELN_LEZ } from '../../sources/mobilithek/sources.ts';
import { CITY_RADIUS_KM, hannoverTrafficReports, kielCountingStations, koelnLowEmissionZone } from '../../sources/mobilithek/adapters.ts';

/** City live feeds that exist only as Mobilithek subscriptions (machine certificate + subscription id). Declarations only. */

const LIVE_CACHE = { freshSeconds: 240, staleSeconds: 1800 };

const LIVE = { refreshSeconds: 240 };
export const MOBILITHEK =
  "Pulled from the Mobilithek (the national access point) with the operator's machine certificate (mutual TLS) and a subscription; " +
  'without MOBILITHEK_CERT_PATH, MOBILITHEK_CERT_PASSWORD and the subscription id the answer is disabled (meta.disabled_reason names the ' +
  'missing setting). DATEX II v2 is read as a stream; DOCTYPE/ENTITY declarations are refused. An active subscription without data ' +
  '(HTTP 422 or an empty body) is no_data.';

export const LIVE_TRAFFIC_TYPES: DataType[] = [
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
    sources: [{ role: 'primary', source: MOBILITHEK_HANNOVER, adapter: hannoverTrafficReports }],
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
    sources: [{ role: 'primary', source: MOBILITHEK_KIEL, adapter: kielCountingStations }],
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
    sources: [{ role: 'primary', source: MOBILITHEK_KOELN_LEZ, adapter: koelnLowEmissionZone }],
  }),
];
