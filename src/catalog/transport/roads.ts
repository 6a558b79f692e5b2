import { dataType, type DataType } from '../../core/data-type.ts';
import { TRAFFIC_REPORTS_BERLIN, TRAFFIC_REPORTS_HANNOVER } from '../../core/records/roads.ts';
import { RoadEvent, TrafficFlowRecord, TrafficRecord, TrafficSituationRecord, WebcamRecord } from '../../core/records/roads.ts';
import { AUTOBAHN } from '../../sources/autobahn/source.ts';
import { DEFAULT_RADIUS_KM, liveEvents, roadEvents, summariseRoadEvents, traffic, webcams } from '../../sources/autobahn/adapters.ts';
import { EVENT_SNAPSHOT, WEBCAM_SNAPSHOT } from '../../sources/autobahn/snapshot.ts';
import { HAMBURG_VERKEHRSLAGE } from '../../sources/hamburg-verkehrslage/source.ts';
import { trafficFlow, trafficSituation } from '../../sources/hamburg-verkehrslage/adapters.ts';
import { SEGMENT_CAP } from '../../sources/hamburg-verkehrslage/verkehrslage.ts';
import { KOELN_VERKEHR } from '../../sources/koeln-verkehr/source.ts';
import { koelnTrafficFlow } from '../../sources/koeln-verkehr/adapters.ts';
import { BERLIN_VIZ } from '../../sources/berlin-viz/source.ts';
import { berlinTrafficReports } from '../../sources/berlin-viz/adapters.ts';

/** Roads and live traffic: the motorway feed around every city and the cities' own traffic feeds. Declarations only. */

const LIVE_CACHE = { freshSeconds: EVENT_SNAPSHOT.freshSeconds, staleSeconds: 1800 };
const LIVE = { refreshSeconds: EVENT_SNAPSHOT.freshSeconds };

const MOTORWAY =
  `Autobahn GmbH traffic API for each motorway within reach of the city (a curated list per city, meta.roads), items within ${DEFAULT_RADIUS_KM} km (AUTOBAHN_RADIUS_KM; meta.radius_km) ` +
  'of the city point. A motorway that cannot be read is left out and named in meta.failed_roads; the answer fails only when none can be read. ' +
  "Texts are the feed's, in German; start and end come from the feed's timestamp or its text lines and are zoned Europe/Berlin times. " +
  "The feed's own fields are kept unchanged under raw (camelCase).";

/** City feeds merged into the live incidents and roadworks (city slug -> data type). */
/** The cities whose own traffic messages join the motorway feed's incidents and roadworks. */
const CITY_FEEDS = { berlin: TRAFFIC_REPORTS_BERLIN, hannover: TRAFFIC_REPORTS_HANNOVER };

export const ROAD_TYPES: DataType[] = [
  dataType({
    type: 'road-events',
    history: {
      summarise: summariseRoadEvents,
      fields: [
        { name: 'events', path: 'events', unit: 'count' },
        { name: 'blocked', path: 'blocked', unit: 'count' },
        { name: 'max_delay_minutes', path: 'max_delay_minutes', unit: 'min' },
      ],
    },
    label: 'Verkehrsereignisse (Autobahn)',
    label_en: 'Road events (motorways)',
    group: 'transport',
    summary: 'Roadworks, warnings and closures on the motorways around the city, with start, end, delay and course',
    description: MOTORWAY,
    record: RoadEvent,
    list: true,
    cache: LIVE_CACHE,
    stream: true,
    // The warning fixture is a real A1 warning at the Buchholzer Dreieck, 21 km from Hamburg.
    example: { city: 'hamburg' },
    sources: [{ role: 'primary', source: AUTOBAHN, adapter: roadEvents }],
  }),
  dataType({
    type: 'traffic',
    history: {
      fields: [
        { name: 'warnings', path: 'counts.warning', unit: 'count' },
        { name: 'roadworks', path: 'counts.roadworks', unit: 'count' },
        { name: 'closures', path: 'counts.closure', unit: 'count' },
        { name: 'max_delay_minutes', path: 'max_delay_minutes', unit: 'min' },
      ],
    },
    label: 'Verkehrslage (Autobahn)',
    label_en: 'Traffic (motorways)',
    group: 'transport',
    summary: 'Current motorway warnings around the city with delay and average speed, and counts of warnings, roadworks and closures',
    description: MOTORWAY,
    path: '/api/v1/live/{city}/traffic',
    aliases: ['/api/v1/cities/{city}/traffic'],
    record: TrafficRecord,
    list: 'warnings',
    cache: LIVE_CACHE,
    live: LIVE,
    example: { city: 'hamburg' },
    sources: [{ role: 'primary', source: AUTOBAHN, adapter: traffic }],
  }),
  dataType({
    type: 'webcams',
    label: 'Webcams (Autobahn)',
    label_en: 'Webcams (motorways)',
    group: 'transport',
    summary: 'Motorway cameras around the city: name, road, viewing direction, image and stream links, operator',
    description:
      `Autobahn GmbH webcam lists of the motorways within reach of the city, cameras within ${DEFAULT_RADIUS_KM} km (AUTOBAHN_RADIUS_KM). Many operators have withdrawn ` +
      "their cameras (most remaining ones are in North Rhine-Westphalia), so most cities answer no_data. Images stay on the operators' servers.",
    path: '/api/v1/live/{city}/webcams',
    aliases: ['/api/v1/cities/{city}/webcams'],
    record: WebcamRecord,
    list: true,
    cache: WEBCAM_SNAPSHOT,
    live: { refreshSeconds: WEBCAM_SNAPSHOT.freshSeconds },
    // The webcam fixture is a real NRW camera at the Kreuz Köln-Nord.
    example: { city: 'koeln' },
    sources: [{ role: 'primary', source: AUTOBAHN, adapter: webcams }],
  }),
  dataType({
    type: 'incidents',
    label: 'Verkehrsereignisse live',
    label_en: 'Live traffic events',
    group: 'transport',
    summary: "Live traffic events of the city: motorway warnings and closures, merged with the city's own traffic messages where it publishes them",
    description: `${MOTORWAY} Each item names its feed in source.`,
    path: '/api/v1/live/{city}/incidents',
    aliases: ['/api/v1/live/{city}/ereignisse'],
    record: RoadEvent,
    list: true,
    cache: LIVE_CACHE,
    live: LIVE,
    example: { city: 'hamburg' },
    sources: [{ role: 'primary', source: AUTOBAHN, adapter: liveEvents(['warning', 'closure'], CITY_FEEDS, 'live traffic events') }],
    lookups: Object.values(CITY_FEEDS),
  }),
  dataType({
    type: 'roadworks',
    label: 'Baustellen live',
    label_en: 'Live roadworks',
    group: 'transport',
    summary: "Live roadworks of the city: motorway roadworks, merged with the city's own roadworks feed where it publishes one",
    description: `${MOTORWAY} Each item names its feed in source.`,
    path: '/api/v1/live/{city}/roadworks',
    aliases: ['/api/v1/live/{city}/baustellen'],
    record: RoadEvent,
    list: true,
    cache: LIVE_CACHE,
    live: LIVE,
    // The roadworks fixture is a real A1 site between Pansdorf and Neustadt, 15 km north of Lübeck.
    example: { city: 'luebeck' },
    sources: [{ role: 'primary', source: AUTOBAHN, adapter: liveEvents(['roadworks'], CITY_FEEDS, 'live roadworks') }],
    lookups: Object.values(CITY_FEEDS),
  }),
  dataType({
    type: 'traffic-flow',
    label: 'Verkehrsfluss live',
    label_en: 'Live traffic flow',
    group: 'transport',
    summary: 'Live traffic state of the city road network: segments per state (free, dense, slow, congested) and the segments that are not free-flowing',
    description:
      'Where a city publishes its traffic state keylessly, each city from its own source (meta.source names it). ' +
      "Hamburg: the traffic situation map (Urban Data Platform, five-minute snapshots); counts per state from the feed's numberMatched; " +
      'fliessend = free, dicht = dense, zäh = slow, gestaut = congested. ' +
      'Köln: layer 1 "Strecke" of the city\'s traffic calendar map (ArcGIS MapServer); the auslastung code maps 1 = free, 2 = dense, ' +
      '3 = congested (the code list is not published with the data: any other code is state null, and every segment keeps auslastung and ' +
      'tendenz unchanged under raw); congested_share_pct counts segments with a known state. ' +
      `At most ${SEGMENT_CAP} non-free segments are listed, congested first.`,
    path: '/api/v1/live/{city}/traffic-flow',
    coverage: { cities: ['hamburg'], note: 'Hamburg (OGC API) and Köln (ArcGIS MapServer) publish their traffic state keylessly' },
    record: TrafficFlowRecord,
    list: 'segments',
    cache: LIVE_CACHE,
    live: LIVE,
    example: { city: 'hamburg' },
    sources: [
      { role: 'primary', source: HAMBURG_VERKEHRSLAGE, adapter: trafficFlow },
      { role: 'primary', for: ['koeln'], source: KOELN_VERKEHR, adapter: koelnTrafficFlow },
    ],
  }),
  dataType({
    type: 'traffic-situation',
    label: 'Verkehrslage Hamburg',
    label_en: 'Traffic situation Hamburg',
    group: 'transport',
    summary: "Hamburg's live traffic situation: road segments per state class and the congested segments",
    description:
      "Hamburg's traffic situation map (Urban Data Platform, OGC API Features, five-minute snapshots of about 22,000 segments). " +
      `Counts per class (fliessend, dicht, zäh, gestaut) come from numberMatched; at most ${SEGMENT_CAP} congested segments are listed.`,
    path: '/api/v1/live/hamburg/traffic-situation',
    aliases: ['/api/v1/live/hamburg/verkehrslage'],
    fixedCity: 'hamburg',
    record: TrafficSituationRecord,
    list: 'congested',
    cache: LIVE_CACHE,
    live: LIVE,
    example: { city: 'hamburg' },
    sources: [{ role: 'primary', source: HAMBURG_VERKEHRSLAGE, adapter: trafficSituation }],
  }),
  dataType({
    type: TRAFFIC_REPORTS_BERLIN.type,
    label: 'Verkehrsmeldungen Berlin',
    label_en: 'Traffic reports Berlin',
    group: 'transport',
    summary: "Berlin's roadworks, closures and disruptions of particular traffic interest (VIZ Berlin, keyless)",
    description:
      "The Verkehrsinformationszentrale Berlin's GeoJSON feed for the whole city: each report with street, section, the VIZ text, " +
      'validity (zoned Europe/Berlin) and whether the road is closed (Vollsperrung or Fahrtrichtungssperrung). Baustelle maps to roadworks, ' +
      "Sperrung to closure, other subtypes (Störung, ...) to warning; the feed's own properties are kept under raw. " +
      "The feed has no ids: id is the report's position in the current file plus its start.",
    path: '/api/v1/live/berlin/traffic-reports',
    aliases: ['/api/v1/live/berlin/verkehrsmeldungen'],
    fixedCity: 'berlin',
    record: RoadEvent,
    list: true,
    cache: LIVE_CACHE,
    live: LIVE,
    example: { city: 'berlin' },
    sources: [{ role: 'primary', source: BERLIN_VIZ, adapter: berlinTrafficReports }],
  }),
];
