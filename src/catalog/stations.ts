import type { DataType } from '../core/data-type.ts';
import type { SourceHttp } from '../core/source-http.ts';
import { UpstreamError } from '../core/upstream-error.ts';
import { STADA } from '../sources/stada/source.ts';
import { parseStationPage, stationsOfCity, type StadaPage, type Station } from '../sources/stada/stations.ts';

/** StaDa's largest page; the whole country fits in one, the loop covers a smaller server cap. */
const PAGE_SIZE = 10_000;
const MAX_PAGES = 50;

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

export const stations: DataType = {
  type: 'stations',
  label: 'Bahnhöfe',
  label_en: 'Railway stations',
  group: 'transport',
  tool: 'stations',
  summary: 'All national-rail stations of the city with EVA number, category, position and post code (DB station data)',
  description:
    "Stations whose StaDa municipalityCode equals the city's AGS (answers without that field: mailing-address city equal to the city's name), sorted by name; stations not in operation " +
    '(category -1/0) and stations without an EVA number are left out. `eva` is the main EVA number and feeds ' +
    '/api/v1/stations/{eva}/departures; `evas` lists all EVA numbers of the station. The national list is fetched once a day.',
  source: STADA,
  params: [
    {
      name: 'q',
      type: 'string',
      description: 'Umlaut-tolerant substring filter on the station name ("Köln", "Koeln" and "Koln" match alike)',
      pattern: /^[^\u0000-\u001f]{1,100}$/,
      patternHint: '1 to 100 printable characters',
    },
    { name: 'limit', type: 'integer', min: 1, clampMax: 100, description: 'Caps the sorted list; default all stations, values above 100 are clamped to 100' },
  ],
  cache: { freshSeconds: 86400, staleSeconds: 2592000 },
  async fetch({ city, params, http, cached }) {
    const all = await cached('all-stations', { freshSeconds: 86400, staleSeconds: 2592000 }, () => fetchAllStations(http));
    const q = params.q as string | undefined;
    const matched = stationsOfCity(all, city, q);
    if (matched.length === 0) {
      const reason =
        q && stationsOfCity(all, city).length > 0 ? `no station name of this city matches "${q}"` : "no national-rail station has this city's municipality key";
      return { data: null, status: 'no_data', meta: { reason } };
    }
    const limit = params.limit as number | undefined;
    const shown = limit ? matched.slice(0, limit) : matched;
    return {
      data: shown.map(({ ags: _ags, place: _place, ...s }) => s),
      meta: { total_matching: matched.length, returned: shown.length },
    };
  },
};

export const STATION_TYPES: DataType[] = [stations];
