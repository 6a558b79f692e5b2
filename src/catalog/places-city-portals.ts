import { dataType, type DataType } from '../core/data-type.ts';
import { EventRecord, OfficeWaitTimesRecord, TreeCadastreRecord } from '../core/records/places.ts';
import { TREE_WFS } from '../sources/tree-wfs/source.ts';
import { TREE_WFS_CITIES } from '../sources/tree-wfs/cities.ts';
import { TREE_PAGE, treeCadastre } from '../sources/tree-wfs/adapters.ts';
import { KOELN_WAITING } from '../sources/koeln-waiting/source.ts';
import { koelnWaitTimes } from '../sources/koeln-waiting/adapters.ts';
import { DESTINATION_ONE, EVENT_EXPERIENCES } from '../sources/destination-one/source.ts';
import { EVENT_LIMIT, EVENT_MONTHS, cityEvents } from '../sources/destination-one/adapters.ts';

/** Places and facilities published by cities and their tourism boards: declarations only. */
export const PLACES_CITY_PORTAL_TYPES: DataType[] = [
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
    reads: [{ source: DESTINATION_ONE, adapter: cityEvents }],
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
    reads: [{ source: KOELN_WAITING, adapter: koelnWaitTimes }],
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
    reads: [{ source: TREE_WFS, adapter: treeCadastre }],
  }),
];
