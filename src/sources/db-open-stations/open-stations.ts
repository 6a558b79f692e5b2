import { Readable } from 'node:stream';
import { delimitedRowStream } from '../../core/delimited.ts';
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

/** Bytes handed to the CSV parser at a time; the event loop runs between pieces (each file is about 1 MB). */
const PIECE_BYTES = 16 * 1024;

/** The file's rows, parsed piece by piece with a turn of the event loop between pieces, never all at once. */
async function* rowsOf(file: Buffer | string, label: string): AsyncGenerator<string[]> {
  const bytes = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
  async function* pieces() {
    for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
      yield bytes.subarray(at, at + PIECE_BYTES);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  yield* delimitedRowStream(Readable.from(pieces(), { objectMode: false }), { label });
}

/** Header names compared without blanks: the 2020-03 edition writes `Bf DS 100Abk.`, the 2019-03 one `Bf DS 100 Abk.`. */
const headerKey = (h: string): string => h.replace(/\s+/g, '').toLowerCase();

/**
 * Rows of a `;` file as objects keyed by the header row (named as `columns` names them, blanks not
 * counted), so a reordered or extended edition still reads; a missing column fails. Lines ending in `;`
 * (some editions) give one empty column more than named. A row with more fields than the header has an
 * unquoted `;` inside its free-text column `spill` (Stationsdaten 2020-03: Seebergen's `Hauptstr. 314;OT
 * Seebergen`): the surplus joins that column and the later columns shift back.
 */
async function* rowsByHeader(file: Buffer | string, columns: readonly string[], label: string, spill?: string): AsyncGenerator<Record<string, string>> {
  let names: string[] | null = null;
  let at = -1;
  for await (const r of rowsOf(file, `${label} CSV`)) {
    if (!names) {
      const header = r.map((h) => h.trim());
      const keys = header.map(headerKey);
      const missing = columns.filter((c) => !keys.includes(headerKey(c)));
      if (missing.length > 0) throw new UpstreamError('parse', `${label} CSV without the column(s) ${missing.join(', ')}`);
      names = keys.map((k, i) => columns.find((c) => headerKey(c) === k) ?? header[i] ?? '');
      at = spill ? keys.indexOf(headerKey(spill)) : -1;
      continue;
    }
    // A trailing `;` is an empty field, not a spilled one.
    const fields = r.length > names.length && r.at(-1) === '' ? r.slice(0, -1) : r;
    const surplus = at >= 0 ? Math.max(0, fields.length - names.length) : 0;
    yield Object.fromEntries(
      names.map((name, i) => {
        if (surplus === 0 || i < at) return [name, fields[i] ?? ''];
        if (i === at) return [name, fields.slice(at, at + surplus + 1).join(';')];
        return [name, fields[i + surplus] ?? ''];
      }),
    );
  }
  if (!names) throw new UpstreamError('parse', `${label} CSV without the column(s) ${columns.join(', ')}`);
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

/**
 * "Stationsdaten": stations with a DS100 code, a name and a category 1-7 (others cannot be shown).
 * Rows without PLZ or Ort (2020-03: Frankfurt am Main Gateway Gardens) keep null there and so
 * belong to no city; a row without DS100 (Klein-Reken) cannot be joined and is left out.
 */
export async function parseStationsdaten(file: Buffer | string): Promise<OpenStation[]> {
  const out: OpenStation[] = [];
  for await (const r of rowsByHeader(file, STATION_COLUMNS, 'Stationsdaten', 'Straße')) {
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
export async function parseHaltestellen(file: Buffer | string): Promise<OpenStop[]> {
  const out: OpenStop[] = [];
  for await (const r of rowsByHeader(file, STOP_COLUMNS, 'Haltestellen')) {
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
