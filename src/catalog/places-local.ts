import { dataType, type DataType } from '../core/data-type.ts';
import { EventRecord } from '../core/records/places.ts';
import { DESTINATION_ONE, EVENT_EXPERIENCES } from '../sources/destination-one/source.ts';
import { EVENT_LIMIT, EVENT_MONTHS, cityEvents } from '../sources/destination-one/adapters.ts';

/** Places and facilities published by cities and their tourism boards: declarations only. */
export const PLACES_LOCAL_TYPES: DataType[] = [
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
    source: DESTINATION_ONE,
    record: EventRecord,
    list: true,
    cache: { freshSeconds: 3600, staleSeconds: 86400 },
    coverage: {
      cities: Object.keys(EVENT_EXPERIENCES),
      note: "Events come from tourism boards' open-data experiences on destination.one; the Saxon board publishes one, other cities' boards do not.",
    },
    example: { city: 'dresden' },
    adapter: cityEvents,
  }),
];
