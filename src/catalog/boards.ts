import { globalType, type AdapterResult, type DataType, type FetchContext, type GlobalFetchContext } from '../core/data-type.ts';
import type { ParamDecl } from '../core/params.ts';
import { DB_TIMETABLES } from '../sources/db-timetables/source.ts';
import { fetchBoard } from '../sources/db-timetables/fetch-board.ts';
import type { BoardKind } from '../sources/db-timetables/board.ts';
import { MAIN_STATION_EVA } from '../sources/db-timetables/main-stations.ts';
import { mainStation, type Station } from '../sources/stada/stations.ts';

/** Digits only, checked before the value can reach an upstream URL. */
const EVA_PATTERN = /^\d{6,8}$/;
const evaParam = (where: 'path' | 'query'): ParamDecl => ({
  name: 'eva',
  in: where,
  type: 'string',
  required: where === 'path',
  pattern: EVA_PATTERN,
  patternHint: 'an EVA station number of 6 to 8 digits (e.g. 8000105); GET /api/v1/cities/{slug}/stations lists them',
  description: where === 'path' ? 'EVA number of the station' : "EVA number of a station of this city (default: the city's main station)",
});

const CACHE = { freshSeconds: 60, staleSeconds: 300 };
const MAIN_STATION_NOTE = `Without ?eva= the board shows the city's main station: curated for ${Object.keys(MAIN_STATION_EVA).length} cities (${Object.keys(MAIN_STATION_EVA).sort().join(', ')}), elsewhere the city's station of the best DB StaDa category (a "Hbf" first among equals); meta.main_station_choice says which.`;

async function board(ctx: GlobalFetchContext, eva: string, kind: BoardKind): Promise<AdapterResult> {
  const { station, entries, window } = await fetchBoard(ctx.http, eva, kind, ctx.now);
  const data = { station, window_start: window.from, window_end: window.to, [kind]: entries };
  if (entries.length === 0) {
    return { data, status: 'no_data', meta: { reason: `no ${kind} planned at EVA ${eva} in the current and next hour` } };
  }
  return { data };
}

type CityStation = Pick<Station, 'eva' | 'evas' | 'name' | 'category'>;

/** The stations the stations catalog lists for the city, or null when it cannot tell (StaDa off or down). */
async function cityStations(ctx: FetchContext): Promise<CityStation[] | null> {
  const d = await ctx.lookup('stations', ctx.city);
  const list = Array.isArray(d) ? d : Array.isArray((d as { stations?: unknown })?.stations) ? (d as { stations: unknown[] }).stations : null;
  return list as CityStation[] | null;
}

function evasOf(list: readonly CityStation[]): Set<string> {
  const evas = new Set<string>();
  for (const s of list) {
    if (s?.eva !== undefined) evas.add(String(s.eva));
    if (Array.isArray(s?.evas)) for (const e of s.evas) evas.add(String(e));
  }
  return evas;
}

const listHint = (ctx: FetchContext) => `GET /api/v1/cities/${ctx.city.slug}/stations lists its stations`;

function cityBoard(kind: BoardKind) {
  return async (ctx: FetchContext): Promise<AdapterResult> => {
    const asked = ctx.params.eva as string | undefined;
    if (asked) {
      const list = await cityStations(ctx);
      if (list && !evasOf(list).has(asked)) {
        return { data: null, status: 'no_data', meta: { reason: `EVA ${asked} is not a station of ${ctx.city.name}; ${listHint(ctx)}` } };
      }
      return board(ctx, asked, kind);
    }
    const curated = MAIN_STATION_EVA[ctx.city.slug];
    if (curated) return withChoice(await board(ctx, curated.eva, kind), 'curated');
    const list = await cityStations(ctx);
    const main = list ? mainStation(list) : null;
    if (!main) {
      const why = list ? `the station catalog lists no station in ${ctx.city.name}` : 'the station catalog (DB StaDa) cannot be read to find its main station';
      return { data: null, status: 'no_data', meta: { reason: `${why}; pass ?eva= (${listHint(ctx)})` } };
    }
    return withChoice(await board(ctx, main.eva, kind), 'station_category');
  };
}

/** Says how the board's station was chosen when the request named none. */
function withChoice(r: AdapterResult, how: 'curated' | 'station_category'): AdapterResult {
  return { ...r, meta: { ...r.meta, main_station_choice: how } };
}

const DESCRIPTION =
  'DB Timetables plan (current and next hour, Europe/Berlin) joined with the full change list: real-time time and platform, cancellations, added trains and disruption messages. Times carry their zone; delay_s = expected - planned.';

/** What differs between the departures and the arrivals variant; everything else follows the kind. */
interface BoardTexts {
  label: string;
  label_en: string;
  summary: string;
}

/** Any station's board by EVA in the path. */
function stationBoard(kind: BoardKind, texts: BoardTexts): DataType {
  return globalType({
    type: `station-board-${kind}`,
    label: texts.label,
    label_en: texts.label_en,
    group: 'transport',
    tool: `station_board_${kind}`,
    summary: texts.summary,
    description: DESCRIPTION,
    path: `/api/v1/stations/{eva}/${kind}`,
    source: DB_TIMETABLES,
    params: [evaParam('path')],
    cache: CACHE,
    list: kind,
    live: { refreshSeconds: 60 },
    fetch: (ctx) => board(ctx, ctx.params.eva as string, kind),
  });
}

/** The city's main station (or ?eva= one of its stations). */
function cityStationBoard(kind: BoardKind, texts: BoardTexts): DataType {
  return {
    type: `station-${kind}`,
    label: texts.label,
    label_en: texts.label_en,
    group: 'transport',
    tool: `station_${kind}`,
    summary: texts.summary,
    description: `${DESCRIPTION} ${MAIN_STATION_NOTE}`,
    source: DB_TIMETABLES,
    params: [evaParam('query')],
    cache: CACHE,
    list: kind,
    fetch: cityBoard(kind),
  };
}

export const stationBoardDepartures = stationBoard('departures', {
  label: 'Abfahrtstafel (Bahnhof)',
  label_en: 'Station departures board',
  summary: 'Live departures of any station by EVA number, all categories, with real-time delay and disruptions',
});

export const stationBoardArrivals = stationBoard('arrivals', {
  label: 'Ankunftstafel (Bahnhof)',
  label_en: 'Station arrivals board',
  summary: 'Live arrivals of any station by EVA number, all categories, with real-time delay and disruptions',
});

export const stationDepartures = cityStationBoard('departures', {
  label: 'Bahnhof: Abfahrten',
  label_en: 'Station departures',
  summary: "Live departures at the city's main railway station (or ?eva= one of its stations)",
});

export const stationArrivals = cityStationBoard('arrivals', {
  label: 'Bahnhof: Ankünfte',
  label_en: 'Station arrivals',
  summary: "Live arrivals at the city's main railway station (or ?eva= one of its stations)",
});

export const BOARD_TYPES: DataType[] = [stationBoardDepartures, stationBoardArrivals, stationDepartures, stationArrivals];
