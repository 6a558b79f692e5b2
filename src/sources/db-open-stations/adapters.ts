import type { Adapter } from '../../core/data-type.ts';
import type { StationList } from '../../core/records/stations.ts';
import type { SourceHttp } from '../../core/adapter-http.ts';
import { cityStationsAnswer } from '../stada/stations.ts';
import { joinOpenStations, parseHaltestellen, parseStationsdaten } from './open-stations.ts';

/** Dated editions, refreshed at most once a day; kept a month while the download server is away. */
export const OPEN_STATIONS_CACHE = { freshSeconds: 86400, staleSeconds: 2592000 };

/** The raw bytes: published as UTF-8, an editor's cp1252 re-save still reads (the parser decodes either). */
async function download(http: SourceHttp, key: 'stationsdaten' | 'haltestellen'): Promise<Buffer> {
  const { body } = await http.request('', key === 'haltestellen' ? { base: http.url(key) } : {});
  return body;
}

/** "…-Stand2020-03.csv" -> "2020-03": the edition the configured file names, if it does. */
function editionOf(url: string): string | null {
  return /Stand[_-]?(\d{4}-\d{2})/i.exec(url)?.[1] ?? null;
}

/**
 * Keyless fallback of `stations`: the two open files joined by DS100 code, matched to the
 * city by `Ort` (exact, umlaut-tolerant, against the city's name and aliases).
 */
export const openCityStations: Adapter<StationList> = async ({ city, params, http, cached }) => {
  const [stations, stops] = await Promise.all([
    cached('stationsdaten', OPEN_STATIONS_CACHE, async () => parseStationsdaten(await download(http, 'stationsdaten'))),
    cached('haltestellen', OPEN_STATIONS_CACHE, async () => parseHaltestellen(await download(http, 'haltestellen'))),
  ]);
  const answer = cityStationsAnswer(
    joinOpenStations(stations, stops),
    city,
    params,
    "no station of DB's open station list with an EVA number names this city as its Ort",
  );
  const edition = editionOf(http.baseUrl);
  return {
    ...answer,
    meta: {
      ...answer.meta,
      edition: edition ? `Stand ${edition}` : null,
      edition_note: `DB's open-data edition${edition ? ` of ${edition}` : ''}, not the live station register: stations opened or renamed since are missing or outdated; the city is matched by the address town (Ort), not a municipality key.`,
    },
  };
};
