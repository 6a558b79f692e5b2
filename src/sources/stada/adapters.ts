import type { Adapter } from '../../core/data-type.ts';
import type { StationList } from '../../core/records/stations.ts';
import type { SourceHttp } from '../../core/adapter-http.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { cityStationsAnswer, parseStationPage, type StadaPage, type Station } from './stations.ts';

/** StaDa's largest page; the whole country fits in one, the loop covers a smaller server cap. */
const PAGE_SIZE = 10_000;
const MAX_PAGES = 50;
/** The national list changes rarely: fetched once a day, kept a month when StaDa is down. */
export const STATIONS_CACHE = { freshSeconds: 86400, staleSeconds: 2592000 };

async function fetchAllStations(http: SourceHttp): Promise<Station[]> {
  const headers = { 'DB-Client-Id': http.credential('DB_CLIENT_ID'), 'DB-Api-Key': http.credential('DB_API_KEY') };
  const all: Station[] = [];
  let offset = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const p = parseStationPage(await http.json<StadaPage>('/stations', { query: { offset, limit: PAGE_SIZE }, headers }));
    all.push(...p.stations);
    offset += p.received;
    if (p.received === 0 || offset >= p.total) {
      // An empty national list is an upstream fault; caching it would hide every station for a month.
      if (all.length === 0) throw new UpstreamError('parse', 'StaDa returned no stations');
      return all;
    }
  }
  throw new UpstreamError('parse', `StaDa paging did not end after ${MAX_PAGES} pages`);
}

/** The city's stations from the national list, optionally filtered by name (?q=) and capped (?limit=). */
export const cityStations: Adapter<StationList> = async ({ city, params, http, cached }) =>
  cityStationsAnswer(
    await cached('all-stations', STATIONS_CACHE, () => fetchAllStations(http)),
    city,
    params,
    "no national-rail station has this city's municipality key",
  );
