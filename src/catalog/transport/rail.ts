import { dataType, globalType, type DataType } from '../../core/data-type.ts';
import { STATIONS } from '../../core/records/stations.ts';
import type { ParamDecl } from '../../core/params.ts';
import { StationList } from '../../core/records/stations.ts';
import { StationArrivalsRecord, StationDeparturesRecord } from '../../core/records/departures.ts';
import { STADA } from '../../sources/stada/source.ts';
import { cityStations, STATIONS_CACHE } from '../../sources/stada/adapters.ts';
import { DB_OPEN_STATIONS } from '../../sources/db-open-stations/source.ts';
import { OPEN_STATIONS_CACHE, openCityStations } from '../../sources/db-open-stations/adapters.ts';
import { DB_TIMETABLES } from '../../sources/db-timetables/source.ts';
import { MAIN_STATION_EVA } from '../../sources/db-timetables/main-stations.ts';
import { cityStationArrivals, cityStationDepartures, stationBoardArrivals, stationBoardDepartures } from '../../sources/db-timetables/adapters.ts';

/** National rail: the stations of a city (DB StaDa) and station boards (DB Timetables). Declarations only. */

/** Essen Hbf: the station the DB Timetables fixtures were recorded at. */
const EXAMPLE_EVA = '8000098';

/** Digits only, checked before the value can reach an upstream URL. */
const EVA_PATTERN = /^\d{6,8}$/;
const evaParam = (where: 'path' | 'query'): ParamDecl => ({
  name: 'eva',
  in: where,
  type: 'string',
  required: where === 'path',
  pattern: EVA_PATTERN,
  patternHint: 'an EVA station number of 6 to 8 digits (e.g. 8000105); GET /api/v1/cities/{city}/stations lists them',
  description: where === 'path' ? 'EVA number of the station' : "EVA number of a station of this city (default: the city's main station)",
});

const BOARD_CACHE = { freshSeconds: 60, staleSeconds: 300 };
const BOARD_DESCRIPTION =
  'DB Timetables plan (current and next hour, Europe/Berlin) joined with the full change list: real-time time and platform, cancellations, added trains and disruption messages. Times carry their zone; delay_s = expected - planned.';
const MAIN_STATION_NOTE = `Without ?eva= the board shows the city's main station: curated for ${Object.keys(MAIN_STATION_EVA).length} cities (${Object.keys(MAIN_STATION_EVA).sort().join(', ')}), elsewhere the city's station of the best DB StaDa category (a "Hbf" first among equals); meta.main_station_choice says which.`;

export const RAIL_TYPES: DataType[] = [
  dataType({
    type: STATIONS.type,
    label: 'Bahnhöfe',
    label_en: 'Railway stations',
    group: 'transport',
    summary: 'All national-rail stations of the city with EVA number, category, position and post code (DB station data)',
    description:
      "Stations whose StaDa municipalityCode equals the city's AGS (answers without that field: mailing-address city equal to the city's name), sorted by name; stations not in operation " +
      '(category -1/0) and stations without an EVA number are left out. `eva` is the main EVA number and feeds ' +
      '/api/v1/stations/{eva}/departures; `evas` lists all EVA numbers of the station. The national list is fetched once a day.',
    params: [
      {
        name: 'q',
        type: 'string',
        description: 'Umlaut-tolerant substring filter on the station name ("Köln", "Koeln" and "Koln" match alike)',
        pattern: /^\P{Cc}{1,100}$/u,
        patternHint: '1 to 100 printable characters',
      },
      { name: 'limit', type: 'integer', min: 1, clampMax: 100, description: 'Caps the sorted list; default all stations, values above 100 are clamped to 100' },
    ],
    // Not a paged list: its own ?limit= caps the sorted list (and ?q= filters it).
    record: StationList,
    cache: STATIONS_CACHE,
    example: { city: 'koeln' },
    sources: [
      { role: 'primary', source: STADA, adapter: cityStations },
      {
        role: 'stand-in',
        source: DB_OPEN_STATIONS,
        adapter: openCityStations,
        cache: OPEN_STATIONS_CACHE,
        note:
          "Without DB API Marketplace credentials: DB's open station data (Stationsdaten Stand 2020-03 joined by DS100 code with the Haltestellen list 2020, CC BY 4.0), a dated edition. " +
          'No municipality key: a station counts when its address town (Ort) equals the city\'s name or an alias, so stations addressed to a district (e.g. "Köln-Mülheim") are missed; ' +
          'evas lists the EVA numbers of the stops sharing the DS100 code. meta.edition names the edition.',
      },
    ],
  }),
  globalType({
    type: 'station-board-departures',
    label: 'Abfahrtstafel (Bahnhof)',
    label_en: 'Station departures board',
    group: 'transport',
    tool: 'departures',
    summary: 'Live departures of any station by EVA number, all categories, with real-time delay and disruptions',
    description: BOARD_DESCRIPTION,
    path: '/api/v1/stations/{eva}/departures',
    params: [evaParam('path')],
    record: StationDeparturesRecord,
    list: 'departures',
    cache: BOARD_CACHE,
    live: { refreshSeconds: 60 },
    example: { params: { eva: EXAMPLE_EVA } },
    sources: [{ role: 'primary', source: DB_TIMETABLES, adapter: stationBoardDepartures }],
  }),
  globalType({
    type: 'station-board-arrivals',
    label: 'Ankunftstafel (Bahnhof)',
    label_en: 'Station arrivals board',
    group: 'transport',
    tool: 'departures',
    summary: 'Live arrivals of any station by EVA number, all categories, with real-time delay and disruptions',
    description: BOARD_DESCRIPTION,
    path: '/api/v1/stations/{eva}/arrivals',
    params: [evaParam('path')],
    record: StationArrivalsRecord,
    list: 'arrivals',
    cache: BOARD_CACHE,
    live: { refreshSeconds: 60 },
    example: { params: { eva: EXAMPLE_EVA } },
    sources: [{ role: 'primary', source: DB_TIMETABLES, adapter: stationBoardArrivals }],
  }),
  dataType({
    type: 'station-departures',
    label: 'Bahnhof: Abfahrten',
    label_en: 'Station departures',
    group: 'transport',
    tool: 'departures',
    summary: "Live departures at the city's main railway station (or ?eva= one of its stations)",
    description: `${BOARD_DESCRIPTION} ${MAIN_STATION_NOTE}`,
    params: [evaParam('query')],
    record: StationDeparturesRecord,
    list: 'departures',
    cache: BOARD_CACHE,
    stream: true,
    example: { city: 'essen' },
    sources: [{ role: 'primary', source: DB_TIMETABLES, adapter: cityStationDepartures }],
    lookups: [STATIONS],
  }),
  dataType({
    type: 'station-arrivals',
    label: 'Bahnhof: Ankünfte',
    label_en: 'Station arrivals',
    group: 'transport',
    tool: 'departures',
    summary: "Live arrivals at the city's main railway station (or ?eva= one of its stations)",
    description: `${BOARD_DESCRIPTION} ${MAIN_STATION_NOTE}`,
    params: [evaParam('query')],
    record: StationArrivalsRecord,
    list: 'arrivals',
    cache: BOARD_CACHE,
    stream: true,
    example: { city: 'essen' },
    sources: [{ role: 'primary', source: DB_TIMETABLES, adapter: cityStationArrivals }],
    lookups: [STATIONS],
  }),
];
