import type { Adapter, AdapterResult, FetchContext, GlobalAdapter, GlobalFetchContext } from '../../core/data-type.ts';
import type { StationArrivalsRecord, StationDeparturesRecord } from '../../core/records/departures.ts';
import { STATIONS } from '../../core/records/stations.ts';
import { toBerlinIso } from '../../core/time.ts';
import { mainStation, type Station } from '../stada/stations.ts';
import type { BoardEntryOf, BoardKind } from './board.ts';
import { fetchBoard } from './fetch-board.ts';
import { MAIN_STATION_EVA } from './main-stations.ts';

/** The data of a departures or an arrivals board. */
type BoardRecordOf<K extends BoardKind> = K extends 'departures' ? StationDeparturesRecord : StationArrivalsRecord;

function boardData<K extends BoardKind>(kind: K, head: Omit<StationDeparturesRecord, 'departures'>, entries: BoardEntryOf<K>[]): BoardRecordOf<K> {
  // The list sits under the board's kind (`departures` or `arrivals`), as `list: kind` declares.
  return { ...head, [kind]: entries } as BoardRecordOf<K>;
}

async function board<K extends BoardKind>(ctx: GlobalFetchContext, eva: string, kind: K): Promise<AdapterResult<BoardRecordOf<K>>> {
  const { station, entries, window } = await fetchBoard(ctx.http, eva, kind, ctx.now);
  const data = boardData(kind, { station, window_start: toBerlinIso(window.from), window_end: toBerlinIso(window.to) }, entries);
  if (entries.length === 0) {
    return { data, status: 'no_data', meta: { reason: `no ${kind} planned at EVA ${eva} in the current and next hour` } };
  }
  return { data };
}

type CityStation = Pick<Station, 'eva' | 'evas' | 'name' | 'category'>;

/** The stations the stations data type lists for the city, or null when it cannot tell (StaDa off or down). */
async function cityStations(ctx: FetchContext): Promise<CityStation[] | null> {
  const d: unknown = await ctx.lookup(STATIONS, ctx.city);
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

/** Says how the board's station was chosen when the request named none. */
function withChoice<T>(r: AdapterResult<T>, how: 'curated' | 'station_category'): AdapterResult<T> {
  return { ...r, meta: { ...r.meta, main_station_choice: how } };
}

/** The city's main station (curated, else the best StaDa category), or ?eva= one of its stations. */
function cityBoard<K extends BoardKind>(kind: K): Adapter<BoardRecordOf<K>> {
  return async (ctx) => {
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

/** Any station's departures by EVA number in the path. */
export const stationBoardDepartures: GlobalAdapter<StationDeparturesRecord> = (ctx) => board(ctx, ctx.params.eva as string, 'departures');
/** Any station's arrivals by EVA number in the path. */
export const stationBoardArrivals: GlobalAdapter<StationArrivalsRecord> = (ctx) => board(ctx, ctx.params.eva as string, 'arrivals');
/** Departures of the city's main station (or ?eva=). */
export const cityStationDepartures: Adapter<StationDeparturesRecord> = cityBoard('departures');
/** Arrivals of the city's main station (or ?eva=). */
export const cityStationArrivals: Adapter<StationArrivalsRecord> = cityBoard('arrivals');
