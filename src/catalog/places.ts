import { dataType, type DataType } from '../core/data-type.ts';
import { POIS_PRECOMPUTE_JOB } from '../jobs/pois-precompute.ts';
import { PoisRecord, PlaceRecord, EventRecord, OfficeWaitTimesRecord, TreeCadastreRecord } from '../core/records/places.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import { POI_TYPES, POI_TYPE_IDS } from '../sources/overpass/poi-types.ts';
import { describeTags } from '../sources/overpass/tag-filter.ts';
import { ITEM_CAP } from '../sources/overpass/stored.ts';
import { storedPois } from '../sources/overpass/adapters.ts';
import { PLACES_PRECOMPUTE_JOB } from '../jobs/places-precompute.ts';
import { PLACE_TYPE_BY_ID } from '../sources/overpass/place-types.ts';
import { storedPlaces } from '../sources/overpass/places-adapters.ts';
import { TREE_WFS } from '../sources/tree-wfs/source.ts';
import { TREE_WFS_CITIES } from '../sources/tree-wfs/cities.ts';
import { TREE_PAGE, treeCadastre } from '../sources/tree-wfs/adapters.ts';
import { KOELN_WAITING } from '../sources/koeln-waiting/source.ts';
import { koelnWaitTimes } from '../sources/koeln-waiting/adapters.ts';
import { DESTINATION_ONE, EVENT_EXPERIENCES } from '../sources/destination-one/source.ts';
import { EVENT_LIMIT, EVENT_MONTHS, cityEvents } from '../sources/destination-one/adapters.ts';

const typeList = POI_TYPES.map((t) => `- \`${t.id}\` (${t.label}): ${describeTags(t)}`).join('\n');

interface PlaceLabels {
  type: string;
  label: string;
  label_en: string;
  /** What the objects are, for the summary line. */
  what: string;
}

/** The OSM place types in the order of the spec's places group; tag filters live in sources/overpass/place-types.ts. */
const PLACES: readonly PlaceLabels[] = [
  { type: 'drinking-water', label: 'Trinkwasserbrunnen', label_en: 'Drinking water', what: 'Public drinking water fountains and taps' },
  { type: 'playgrounds', label: 'Spielplätze', label_en: 'Playgrounds', what: 'Playgrounds' },
  { type: 'post-boxes', label: 'Briefkästen', label_en: 'Post boxes', what: 'Post boxes with their collection times' },
  { type: 'post-offices', label: 'Postfilialen', label_en: 'Post offices', what: 'Post offices and postal agencies' },
  { type: 'public-toilets', label: 'Öffentliche Toiletten', label_en: 'Public toilets', what: 'Public toilets with fee and wheelchair access' },
  { type: 'public-wifi', label: 'Öffentliches WLAN', label_en: 'Public Wi-Fi', what: 'Places offering Wi-Fi free of charge' },
  { type: 'recycling-centres', label: 'Wertstoffhöfe', label_en: 'Recycling centres', what: 'Recycling centres with the materials they accept' },
  { type: 'parcel-lockers', label: 'Paketstationen', label_en: 'Parcel lockers', what: 'Parcel lockers with brand and operator' },
  { type: 'markets', label: 'Wochenmärkte', label_en: 'Markets', what: 'Market places (weekly and farmers’ markets)' },
  { type: 'government-offices', label: 'Ämter und Rathäuser', label_en: 'Government offices', what: 'Government offices and town halls' },
];

function placeType(p: PlaceLabels): DataType {
  const def = PLACE_TYPE_BY_ID.get(p.type);
  if (!def) throw new Error(`no OSM tag filter for ${p.type}`);
  return dataType({
    type: p.type,
    label: p.label,
    label_en: p.label_en,
    group: 'places',
    summary: `${p.what} mapped in OpenStreetMap within the city boundary (full list, precomputed weekly)`,
    description:
      `OpenStreetMap objects tagged ${describeTags(def)} inside the city's administrative boundary (the OSM boundary relation, ` +
      'or the AGS tag), ways and relations by their centre, sorted by name (unnamed last). Read from the store, never fetched live: ' +
      'a weekly job asks the Overpass API once per city for all place types. The list is complete and pages with limit/offset; ' +
      'meta.total is its length, meta.as_of the OSM data state, meta.computed_at the precompute time. Before the first precompute ' +
      'of a city the answer is no_data.',
    record: PlaceRecord,
    list: true,
    cache: 'stored',
    example: { city: 'muenchen' },
    sources: [{ role: 'primary', source: OVERPASS, adapter: storedPlaces(p.type), jobs: [PLACES_PRECOMPUTE_JOB] }],
  });
}

/** The ten OSM place types, stored by the places precompute. */
export const OSM_PLACE_TYPES: DataType[] = PLACES.map(placeType);

/** Places and facilities: declarations only (adapters live in their source modules). */
export const PLACES_TYPES: DataType[] = [
  dataType({
    type: 'pois',
    label: 'Einrichtungen (POIs)',
    label_en: 'Points of interest',
    group: 'places',
    summary: 'Facilities of one type mapped in OpenStreetMap within the city boundary: true total plus a capped sample, precomputed weekly',
    description:
      'Read from the store, never fetched live: a weekly job asks the Overpass API once per city for all types together (its ' +
      `administrative area from the OSM boundary relation, or the AGS tag) and sorts the answer into types by their tags. \`total_available\` is the full count; \`items\` is a sample ` +
      `of at most ${ITEM_CAP} objects sorted by name (ways and relations by their centre) that pages with limit/offset. ` +
      'Before the first precompute of a city the answer is no_data. Types and the OSM tags that define them:\n' +
      typeList,
    params: [{ name: 'type', type: 'string', required: true, enum: POI_TYPE_IDS, description: 'POI type, one of the fixed list' }],
    record: PoisRecord,
    list: 'items',
    cache: 'stored',
    example: { city: 'berlin', params: { type: 'hospital' } },
    sources: [{ role: 'primary', source: OVERPASS, adapter: storedPois, jobs: [POIS_PRECOMPUTE_JOB] }],
  }),
  ...OSM_PLACE_TYPES,
  dataType({
    type: 'events',
    label: 'Veranstaltungen',
    label_en: 'Events',
    group: 'places',
    summary: "Upcoming events in the city from its tourism board's open event database (destination.one open data)",
    description:
      `The destination.one (eT4 META) search of the tourism board's open-data experience, events of the next ${EVENT_MONTHS} months in the ` +
      `city, only records licensed CC0, CC BY or CC BY-SA (each record names its licence), at most ${EVENT_LIMIT}, sorted by their next date. ` +
      'start/end are the next date of an event that has several. Cities whose tourism board publishes no open-data experience answer ' +
      'not_covered (other experiences require a licence key and forbid passing records on).',
    record: EventRecord,
    list: true,
    cache: { freshSeconds: 3600, staleSeconds: 86400 },
    coverage: {
      cities: Object.keys(EVENT_EXPERIENCES),
      note: "Events come from tourism boards' open-data experiences on destination.one; the Saxon board publishes one, other cities' boards do not.",
    },
    example: { city: 'dresden' },
    sources: [{ role: 'primary', source: DESTINATION_ONE, adapter: cityEvents }],
  }),
  dataType({
    type: 'office-wait-times',
    label: 'Wartezeiten Bürgerämter',
    label_en: 'Office waiting times',
    group: 'places',
    summary: "Current waiting times at the city's citizen service centres (Köln's open-data feed)",
    description:
      'Köln publishes the waiting time of its nine customer centres and the vehicle registration office as open data (dl-de/zero); no ' +
      "other city of the register publishes such a feed. Times are the city's Berlin wall-clock times given their zone. The feed has " +
      'been seen frozen for weeks: when its newest update is more than a day old, `stale` is true and meta.note says the values are not current.',
    record: OfficeWaitTimesRecord,
    list: 'offices',
    cache: { freshSeconds: 120, staleSeconds: 900 },
    coverage: { cities: ['koeln'], note: 'Only Köln publishes the waiting times of its citizen service centres as open data.' },
    example: { city: 'koeln' },
    sources: [{ role: 'primary', source: KOELN_WAITING, adapter: koelnWaitTimes }],
  }),
  dataType({
    type: 'tree-cadastre',
    label: 'Baumkataster',
    label_en: 'Street tree cadastre',
    group: 'places',
    summary: "Street trees from the city's tree cadastre WFS: species, planting year, height, crown, coordinates; full count and paged samples",
    description:
      `WFS 2.0 GetFeature of the city's street tree cadastre as GeoJSON, ${TREE_PAGE} trees per request starting at \`start_index\` ` +
      '(meta.next_start_index gives the next page), with the size of the whole cadastre from numberMatched (a resultType=hits request ' +
      'where the GeoJSON leaves it out). Fields the city does not publish are null (Kiel: no planting year). Served for cities whose ' +
      "cadastre is a WFS with an open licence (data.license and data.attribution name the city's terms).",
    params: [
      {
        name: 'start_index',
        type: 'integer',
        min: 0,
        default: 0,
        description: 'Position of the first tree in the cadastre (WFS startIndex), for paging through it',
      },
    ],
    record: TreeCadastreRecord,
    list: 'trees',
    cache: { freshSeconds: 86400, staleSeconds: 7 * 86400 },
    coverage: {
      cities: TREE_WFS_CITIES.map((c) => c.slug),
      note: 'Tree cadastres are served where the city publishes one as a WFS under an open licence (Berlin, Hamburg, Kiel); other cities publish files only or state no licence.',
    },
    example: { city: 'berlin' },
    sources: [{ role: 'primary', source: TREE_WFS, adapter: treeCadastre }],
  }),
];
