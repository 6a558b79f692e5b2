import { globalType, type AdapterResult, type DataType, type FetchContext, type GlobalFetchContext } from './types.ts';
import type { ParamDecl } from './params.ts';
import { DB_TIMETABLES } from '../sources/db-timetables/source.ts';
import { fetchBoard } from '../sources/db-timetables/fetch-board.ts';
import type { BoardKind } from '../sources/db-timetables/board.ts';
import { MAIN_STATION_EVA } from '../sources/db-timetables/main-stations.ts';

/** Digits only, checked before the value can reach an upstream URL. */
const EVA_PATTERN = /^\d{6,8}$/;
const evaParam = (where: 'path' | 'query'): ParamDecl => ({
  name: 'eva',
  in: where,
  type: 'string',
  required: where === 'path',
  pattern: EVA_PATTERN,
  patternHint: 'an EVA station number of 6 to 8 digits (e.g. 8000105); GET /api/v1/cities/{slug}/stations lists them',
  description: where === 'path'
    ? 'EVA number of the station'
    : 'EVA number of a station of this city (default: the city\'s main station where one is mapped)',
});

const CACHE = { freshSeconds: 60, staleSeconds: 300 };
const MAIN_STATION_NOTE = `Main stations are mapped for ${Object.keys(MAIN_STATION_EVA).length} cities (${Object.keys(MAIN_STATION_EVA).sort().join(', ')}); elsewhere pass ?eva=.`;

async function board(ctx: GlobalFetchContext, eva: string, kind: BoardKind): Promise<AdapterResult> {
  const { station, entries, window } = await fetchBoard(ctx.http, eva, kind, ctx.now);
  const data = { station, window_start: window.from, window_end: window.to, [kind]: entries };
  if (entries.length === 0) {
    return { data, status: 'no_data', meta: { reason: `no ${kind} planned at EVA ${eva} in the current and next hour` } };
  }
  return { data };
}

/** Stations the stations catalog lists for the city, or null when it cannot tell. */
async function cityEvas(ctx: FetchContext): Promise<Set<string> | null> {
  const d = await ctx.lookup('stations', ctx.city);
  const list = Array.isArray(d) ? d : Array.isArray((d as { stations?: unknown })?.stations) ? (d as { stations: unknown[] }).stations : null;
  if (!list) return null;
  const evas = new Set<string>();
  for (const s of list as { eva?: unknown; evas?: unknown }[]) {
    if (s?.eva !== undefined) evas.add(String(s.eva));
    if (Array.isArray(s?.evas)) for (const e of s.evas) evas.add(String(e));
  }
  return evas;
}

function cityBoard(kind: BoardKind) {
  return async (ctx: FetchContext): Promise<AdapterResult> => {
    const asked = ctx.params.eva as string | undefined;
    if (asked) {
      const evas = await cityEvas(ctx);
      if (evas && !evas.has(asked)) {
        return { data: null, status: 'no_data', meta: { reason: `EVA ${asked} is not a station of ${ctx.city.name}; GET /api/v1/cities/${ctx.city.slug}/stations lists its stations` } };
      }
      return board(ctx, asked, kind);
    }
    const main = MAIN_STATION_EVA[ctx.city.slug];
    if (!main) {
      return { data: null, status: 'no_data', meta: { reason: `no main station mapped for ${ctx.city.name}; pass ?eva= (GET /api/v1/cities/${ctx.city.slug}/stations lists its stations)` } };
    }
    return board(ctx, main.eva, kind);
  };
}

const DESCRIPTION = 'DB Timetables plan (current and next hour, Europe/Berlin) joined with the full change list: real-time time and platform, cancellations, added trains and disruption messages. Times carry their zone; delay_s = expected - planned.';

export const stationBoardDepartures = globalType({
  type: 'station-board-departures',
  label: 'Abfahrtstafel (Bahnhof)',
  label_en: 'Station departures board',
  group: 'transport',
  tool: 'station_board_departures',
  summary: 'Live departures of any station by EVA number, all categories, with real-time delay and disruptions',
  description: DESCRIPTION,
  path: '/api/v1/stations/{eva}/departures',
  source: DB_TIMETABLES,
  params: [evaParam('path')],
  cache: CACHE,
  list: 'departures',
  live: { refreshSeconds: 60 },
  fetch: (ctx) => board(ctx, ctx.params.eva as string, 'departures'),
});

export const stationBoardArrivals = globalType({
  type: 'station-board-arrivals',
  label: 'Ankunftstafel (Bahnhof)',
  label_en: 'Station arrivals board',
  group: 'transport',
  tool: 'station_board_arrivals',
  summary: 'Live arrivals of any station by EVA number, all categories, with real-time delay and disruptions',
  description: DESCRIPTION,
  path: '/api/v1/stations/{eva}/arrivals',
  source: DB_TIMETABLES,
  params: [evaParam('path')],
  cache: CACHE,
  list: 'arrivals',
  live: { refreshSeconds: 60 },
  fetch: (ctx) => board(ctx, ctx.params.eva as string, 'arrivals'),
});

export const stationDepartures: DataType = {
  type: 'station-departures',
  label: 'Bahnhof: Abfahrten',
  label_en: 'Station departures',
  group: 'transport',
  tool: 'station_departures',
  summary: 'Live departures at the city\'s main railway station (or ?eva= one of its stations)',
  description: `${DESCRIPTION} ${MAIN_STATION_NOTE}`,
  source: DB_TIMETABLES,
  params: [evaParam('query')],
  cache: CACHE,
  list: 'departures',
  fetch: cityBoard('departures'),
};

export const stationArrivals: DataType = {
  type: 'station-arrivals',
  label: 'Bahnhof: Ankünfte',
  label_en: 'Station arrivals',
  group: 'transport',
  tool: 'station_arrivals',
  summary: 'Live arrivals at the city\'s main railway station (or ?eva= one of its stations)',
  description: `${DESCRIPTION} ${MAIN_STATION_NOTE}`,
  source: DB_TIMETABLES,
  params: [evaParam('query')],
  cache: CACHE,
  list: 'arrivals',
  fetch: cityBoard('arrivals'),
};

export const BOARD_TYPES: DataType[] = [stationBoardDepartures, stationBoardArrivals, stationDepartures, stationArrivals];
