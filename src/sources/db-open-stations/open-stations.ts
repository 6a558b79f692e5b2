import { delimitedObjects } from '../../core/delimited.ts';
import { parseNumber } from '../../core/numbers.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { nameKey, type Station } from '../stada/stations.ts';

/** One row of "Stationsdaten": a station of DB Station&Service with its DS100 code and address. */
export interface OpenStation {
  ds100: string;
  name: string;
  category: number;
  post_code: string | null;
  /** `Ort`: the town of the station's address, the only hint at its municipality. */
  place: string | null;
}

/** One row of "Haltestellen": a stop with its EVA number, its DS100 codes and its position. */
export interface OpenStop {
  eva: string;
  ds100: string[];
  name: string;
  lat: number | null;
  lon: number | null;
}

const STATION_COLUMNS = ['Station', 'Bf DS 100 Abk.', 'Kat. Vst', 'PLZ', 'Ort'] as const;
const STOP_COLUMNS = ['EVA_NR', 'DS100', 'NAME', 'Laenge', 'Breite'] as const;

/**
 * Rows of a `;` file as objects keyed by the header row, so a reordered or extended edition
 * still reads. Lines ending in `;` (some editions) give one empty column more than named.
 */
function rowsByHeader(csv: string, required: readonly string[], file: string): Record<string, string>[] {
  return delimitedObjects(csv, { label: `${file} CSV`, required });
}

const text = (s: string | undefined): string | null => (s && s.trim() !== '' ? s.trim() : null);

/** Five digits; a four-digit code lost its leading zero in a spreadsheet export (e.g. Halle 6112). */
function postCode(raw: string | undefined): string | null {
  const digits = (raw ?? '').trim();
  if (/^\d{5}$/.test(digits)) return digits;
  if (/^\d{4}$/.test(digits)) return `0${digits}`;
  return null;
}

/** Coordinates within Germany's surroundings only: a swapped or zero pair is no position. */
function coordinate(raw: string | undefined, min: number, max: number): number | null {
  const n = parseNumber(raw, { notation: 'decimal' });
  return n !== null && n >= min && n <= max ? n : null;
}

/** "Stationsdaten": stations with a DS100 code, a name and a category 1-7 (others cannot be shown). */
export function parseStationsdaten(csv: string): OpenStation[] {
  const out: OpenStation[] = [];
  for (const r of rowsByHeader(csv, STATION_COLUMNS, 'Stationsdaten')) {
    const ds100 = text(r['Bf DS 100 Abk.']);
    const name = text(r['Station']);
    const category = Number(r['Kat. Vst']);
    if (!ds100 || !name || !Number.isInteger(category) || category < 1 || category > 7) continue;
    out.push({ ds100, name, category, post_code: postCode(r['PLZ']), place: text(r['Ort']) });
  }
  if (out.length === 0) throw new UpstreamError('parse', 'Stationsdaten CSV without any station');
  return out;
}

/** "Haltestellen": stops with an EVA number; `DS100` may hold several codes separated by commas. */
export function parseHaltestellen(csv: string): OpenStop[] {
  const out: OpenStop[] = [];
  for (const r of rowsByHeader(csv, STOP_COLUMNS, 'Haltestellen')) {
    const eva = (r['EVA_NR'] ?? '').trim();
    const ds100 = (r['DS100'] ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    const name = text(r['NAME']);
    if (!/^\d{6,8}$/.test(eva) || ds100.length === 0 || !name) continue;
    const lat = coordinate(r['Breite'], 45, 57);
    const lon = coordinate(r['Laenge'], 4, 17);
    // Half a position is none.
    const located = lat !== null && lon !== null;
    out.push({ eva, ds100, name, lat: located ? lat : null, lon: located ? lon : null });
  }
  if (out.length === 0) throw new UpstreamError('parse', 'Haltestellen CSV without any stop');
  return out;
}

/**
 * The station's main stop among those sharing its DS100 code: the one of the same name, else
 * the one listing the code first, else the first in the file.
 */
function mainStop(station: OpenStation, stops: readonly OpenStop[]): OpenStop | undefined {
  const key = nameKey(station.name);
  return stops.find((s) => nameKey(s.name) === key) ?? stops.find((s) => s.ds100[0] === station.ds100) ?? stops[0];
}

/**
 * Joins the two files by DS100 code into the station records StaDa answers with. Stations
 * without a stop (no EVA number) are left out: the boards need the EVA number. Neither file
 * has a municipality key, so `ags` stays null and the city is matched by `Ort`.
 */
export function joinOpenStations(stations: readonly OpenStation[], stops: readonly OpenStop[]): Station[] {
  const byCode = new Map<string, OpenStop[]>();
  for (const stop of stops) {
    for (const code of stop.ds100) {
      const list = byCode.get(code);
      if (list) list.push(stop);
      else byCode.set(code, [stop]);
    }
  }
  const out: Station[] = [];
  for (const st of stations) {
    const stopsOfStation = byCode.get(st.ds100) ?? [];
    const main = mainStop(st, stopsOfStation);
    if (!main) continue;
    const evas = [main.eva, ...stopsOfStation.map((s) => s.eva).filter((e) => e !== main.eva)];
    out.push({
      eva: main.eva,
      evas: [...new Set(evas)],
      name: st.name,
      category: st.category,
      lat: main.lat,
      lon: main.lon,
      post_code: st.post_code,
      ags: null,
      place: st.place,
    });
  }
  return out;
}
