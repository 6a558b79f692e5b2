import type { AdapterResult, DataType, FetchContext } from '../core/data-type.ts';
import type { ParamDecl } from '../core/params.ts';
import { VAG } from '../sources/vag/source.ts';
import { parseVagDepartures, type VagAbfahrten } from '../sources/vag/departures.ts';
import { EFA } from '../sources/efa/source.ts';
import { parseEfaDepartures, type EfaDmResponse } from '../sources/efa/departures.ts';
import { HVV_GEOFOX } from '../sources/hvv/source.ts';
import { gtiCall } from '../sources/hvv/gti.ts';
import { gtiNow, parseGtiDepartures, type GtiCheckName, type GtiDepartureList } from '../sources/hvv/departures.ts';
import { RMV } from '../sources/rmv/source.ts';
import { isUnknownStop, parseRmvDepartures, type HafasDepartureBoard } from '../sources/rmv/departures.ts';

/** Means of transport, one vocabulary for every feed. */
export type Mode = 'rail' | 'suburban' | 'subway' | 'light_rail' | 'tram' | 'bus' | 'ferry' | 'cable' | 'on_demand' | 'other';

/** One departure in the shape shared by every city feed. */
export interface LiveDeparture {
  line: string | null;
  direction: string | null;
  /** The stop (station) and, where the feed names it, the stop point/platform id. */
  stop: { id: string | null; name: string | null; point: string | null };
  planned_time: string | null;
  expected_time: string | null;
  delay_s: number | null;
  platform: string | null;
  mode: Mode;
  /** null where the feed does not report cancellations. */
  cancelled: boolean | null;
  realtime: boolean;
  trip_id: string | null;
}

export interface LiveBoard {
  stop: { id: string | null; name: string | null };
  departures: LiveDeparture[];
  as_of: string | null;
}

const CACHE = { freshSeconds: 30, staleSeconds: 120 };
const LIVE = { refreshSeconds: 30 };

function result(board: LiveBoard): AdapterResult {
  const data = { stop: board.stop, departures: board.departures };
  if (board.departures.length === 0) return { data, status: 'no_data', as_of: board.as_of, meta: { reason: 'no departures announced at this stop' } };
  return { data, as_of: board.as_of };
}

const stopParam = (description: string, pattern: RegExp, patternHint: string): ParamDecl => ({
  name: 'stop',
  type: 'string',
  description,
  pattern,
  patternHint,
});

// ---- Nürnberg (VAG) ----
const VAG_DEFAULT_STOP = '510'; // Nürnberg Hauptbahnhof

export const departuresVag: DataType = {
  type: 'departures-vag',
  label: 'Abfahrten Nürnberg (VAG)',
  label_en: 'Departures Nuremberg (VAG)',
  group: 'live',
  tool: 'departures_nuernberg',
  summary: 'Live departures per stop in Nuremberg, VAG real-time feed (keyless)',
  description: `Per VGN stop number (?stop=, default ${VAG_DEFAULT_STOP} = Nürnberg Hauptbahnhof). delay_s = actual - planned; the feed does not report cancellations (cancelled=null).`,
  path: '/api/v1/live/nuernberg/departures',
  fixedCity: 'nuernberg',
  source: VAG,
  params: [stopParam('VGN stop number', /^\d{1,7}$/, 'a numeric VGN stop number (e.g. 510)')],
  cache: CACHE,
  list: 'departures',
  live: LIVE,
  async fetch({ http, params }) {
    const stop = (params.stop as string | undefined) ?? VAG_DEFAULT_STOP;
    const body = await http.json<VagAbfahrten>('/abfahrten.json/vgn/{stop}', { params: { stop } });
    return result(parseVagDepartures(body, stop));
  },
};

// ---- EFA: VRR core cities and Stuttgart (VVS) ----
/**
 * Default stop per served city: DELFI global ids where a public source confirms them, else the
 * main station's name, which the EFA resolves itself (type_dm=any).
 */
const EFA_DEFAULT_STOPS: Readonly<Record<string, string>> = {
  duesseldorf: 'de:05111:18235',
  essen: 'de:05113:9289',
  bochum: 'de:05911:5194',
  dortmund: 'Dortmund Hbf',
  duisburg: 'Duisburg Hbf',
  wuppertal: 'Wuppertal Hbf',
  stuttgart: 'de:08111:6115',
};
const EFA_VVS_CITIES = new Set(['stuttgart']);

export const departuresEfa: DataType = {
  type: 'departures-efa',
  label: 'Abfahrten (VRR, VVS)',
  label_en: 'Departures (VRR, VVS)',
  group: 'live',
  tool: 'departures_regional',
  summary: 'Live departures per station for the core cities of the VRR network plus Stuttgart (VVS), EFA departure monitor',
  description:
    'Stop by DELFI global id (de:05113:9289), numeric EFA id or name (?stop=); default is the main station. Covers the VRR core cities Düsseldorf, Essen, Dortmund, Duisburg, Bochum and Wuppertal plus Stuttgart.',
  path: '/api/v1/live/{slug}/departures',
  coverage: {
    cities: Object.keys(EFA_DEFAULT_STOPS),
    note: 'EFA departure monitors of VRR (Rhine-Ruhr core cities) and VVS (Stuttgart); Nuremberg, Hamburg and Frankfurt have their own departure routes',
  },
  source: EFA,
  params: [
    stopParam(
      'EFA stop: DELFI global id, numeric id or stop name',
      /^[\p{L}\p{N} .,:()'/-]{2,80}$/u,
      'a DELFI stop id such as de:05113:9289, a numeric EFA id or a stop name',
    ),
  ],
  cache: CACHE,
  list: 'departures',
  live: LIVE,
  async fetch({ http, params, city }: FetchContext) {
    const stop = (params.stop as string | undefined) ?? EFA_DEFAULT_STOPS[city.slug];
    const body = await http.json<EfaDmResponse>('/XML_DM_REQUEST', {
      base: EFA_VVS_CITIES.has(city.slug) ? http.url('vvs') : undefined,
      query: { outputFormat: 'rapidJSON', type_dm: 'any', name_dm: stop, mode: 'direct', useRealtime: 1, stateless: 1, limit: 40 },
    });
    const parsed = parseEfaDepartures(body);
    if ('noData' in parsed) return { data: null, status: 'no_data', meta: { reason: `${parsed.noData} (stop "${stop}")` } };
    return result(parsed.board);
  },
};

// ---- Hamburg (HVV Geofox GTI) ----
const HVV_DEFAULT_STATION = 'Hamburg Hauptbahnhof';

export const departuresHvv: DataType = {
  type: 'departures-hvv',
  label: 'Abfahrten Hamburg (HVV)',
  label_en: 'Departures Hamburg (HVV)',
  group: 'live',
  tool: 'departures_hamburg',
  summary: 'Live departures per station in Hamburg, HVV Geofox GTI',
  description: `Station by HVV id (Master:10901) or name (?stop=, default "${HVV_DEFAULT_STATION}", resolved with GTI checkName). Needs server-side GTI credentials.`,
  path: '/api/v1/live/hamburg/departures',
  fixedCity: 'hamburg',
  source: HVV_GEOFOX,
  params: [stopParam('HVV station id or name', /^(Master:\d{1,9}|[\p{L}\p{N} .,()'/-]{2,80})$/u, 'an HVV station id such as Master:10901 or a station name')],
  cache: CACHE,
  list: 'departures',
  live: LIVE,
  async fetch({ http, params, now }) {
    const asked = (params.stop as string | undefined) ?? HVV_DEFAULT_STATION;
    let station: { id: string; name: string | null };
    if (/^Master:\d+$/.test(asked)) {
      station = { id: asked, name: null };
    } else {
      const found = await gtiCall<GtiCheckName>(http, 'checkName', { theName: { name: asked, type: 'STATION' }, maxList: 1 });
      const best = found.results?.find((r) => r.id);
      if (!best?.id) return { data: null, status: 'no_data', meta: { reason: `no HVV station named "${asked}"` } };
      station = { id: best.id, name: best.combinedName ?? best.name ?? null };
    }
    const body = await gtiCall<GtiDepartureList>(http, 'departureList', {
      station: { id: station.id, ...(station.name ? { name: station.name } : {}), type: 'STATION' },
      time: gtiNow(now),
      maxList: 40,
      maxTimeOffset: 120,
      useRealtime: true,
    });
    return result(parseGtiDepartures(body, station));
  },
};

// ---- Frankfurt / Rhine-Main (RMV HAFAS) ----
const RMV_DEFAULT_STOP = '3000010'; // Frankfurt (Main) Hauptbahnhof

export const departuresRmv: DataType = {
  type: 'departures-rmv',
  label: 'Abfahrten Frankfurt (RMV)',
  label_en: 'Departures Frankfurt (RMV)',
  group: 'live',
  tool: 'departures_frankfurt',
  summary: 'Live departures per stop in Frankfurt and the Rhine-Main area, RMV HAFAS',
  description: `RMV stop id (?stop=, default ${RMV_DEFAULT_STOP} = Frankfurt (Main) Hauptbahnhof). Needs a server-side RMV access id.`,
  path: '/api/v1/live/frankfurt-am-main/departures',
  fixedCity: 'frankfurt-am-main',
  source: RMV,
  params: [stopParam('RMV stop id (extId)', /^\d{6,9}$/, 'a numeric RMV stop id (e.g. 3000010)')],
  cache: CACHE,
  list: 'departures',
  live: LIVE,
  async fetch({ http, params }) {
    const stop = (params.stop as string | undefined) ?? RMV_DEFAULT_STOP;
    const body = await http.json<HafasDepartureBoard>('/departureBoard', {
      query: { id: stop, format: 'json', duration: 60, maxJourneys: 40, accessId: http.credential('RMV_API_KEY') },
      okStatuses: [400],
    });
    if (isUnknownStop(body)) return { data: null, status: 'no_data', meta: { reason: `RMV knows no stop ${stop}` } };
    return result(parseRmvDepartures(body, stop));
  },
};

export const DEPARTURE_TYPES: DataType[] = [departuresVag, departuresEfa, departuresHvv, departuresRmv];
