import type { SourceHttp } from '../../core/adapter-http.ts';
import type { BikeCountStationRecord } from '../../core/records/mobility.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import { BIKE_FEEDS } from './source.ts';
import { addCount, summariseStation, type CountedStation } from './days.ts';
import { openWorkbook, type Cell } from './xlsx.ts';
import { parseNumber } from '../../core/numbers.ts';

export const BERLIN_LOCATIONS_SHEET = 'Standortdaten';
const YEAR_SHEET = /^Jahresdatei (\d{4})$/;
const LOCATION_COLUMNS = { id: 'Zählstelle', name: 'Beschreibung - Fahrtrichtung', lat: 'Breitengrad', lon: 'Längengrad' } as const;
/** A counter's column header: its code, then its installation date (`02-MI-JAN-N 01.04.2015`). */
const COUNTER_HEADER = /^(.+?)\s+\d{2}\.\d{2}\.\d{4}$/;

export interface BerlinCounts {
  stations: BikeCountStationRecord[];
  /** Start of the newest hour the workbook counts, zoned (e.g. 2025-12-31T23:00:00+01:00). */
  counted_until: string | null;
  sheet: string;
}

/** An Excel serial day number (1900 or 1904 system) as the wall-clock time it shows, to the minute. */
export function excelWallClock(serial: number, date1904: boolean): { date: string; hour: number; minute: number } {
  const minutes = Math.round((serial + (date1904 ? 1462 : 0) - 25569) * 1440);
  const d = new Date(minutes * 60_000);
  return { date: d.toISOString().slice(0, 10), hour: d.getUTCHours(), minute: d.getUTCMinutes() };
}

const text = (c: Cell | undefined) => (typeof c === 'string' ? c.trim() : typeof c === 'number' ? String(c) : '');
const coord = (c: Cell | undefined) => parseNumber(c, { notation: 'decimal' });

/**
 * The SenMVKU workbook "Gesamtdatei Stundenwerte": sheets Hinweise, Legende, Standortdaten and one
 * "Jahresdatei YYYY" per year. Standortdaten has a header row `Zählstelle | Beschreibung - Fahrtrichtung |
 * Breitengrad | Längengrad | Installationsdatum`; a year sheet has a header row whose first cell names the
 * timestamp column and whose other cells are `<counter code> <DD.MM.YYYY>`, then one row per hour with the
 * local (Europe/Berlin) hour as an Excel date in column A and each counter's count (empty before it was
 * installed). Only the newest year sheet and Standortdaten are read. The workbook is compiled once a
 * year after the counting year, so the newest day is normally 31 December; a counter's newest day
 * still counts only when its 23:00 hour is in.
 */
export async function parseBerlinWorkbook(body: Buffer): Promise<BerlinCounts> {
  const wb = await openWorkbook(body);
  try {
    const years = wb.sheets.filter((s) => YEAR_SHEET.test(s)).sort();
    const sheet = years.at(-1);
    if (!sheet) throw new UpstreamError('parse', 'Berlin counting workbook without a "Jahresdatei YYYY" sheet');
    if (!wb.sheets.includes(BERLIN_LOCATIONS_SHEET)) throw new UpstreamError('parse', `Berlin counting workbook without the sheet ${BERLIN_LOCATIONS_SHEET}`);

    const places = new Map<string, { name: string | null; lat: number | null; lon: number | null }>();
    let cols: Record<keyof typeof LOCATION_COLUMNS, number> | null = null;
    await wb.eachRow(BERLIN_LOCATIONS_SHEET, (cells) => {
      if (!cols) {
        const at = (h: string) => cells.findIndex((c) => text(c) === h);
        const found = { id: at(LOCATION_COLUMNS.id), name: at(LOCATION_COLUMNS.name), lat: at(LOCATION_COLUMNS.lat), lon: at(LOCATION_COLUMNS.lon) };
        if (found.id >= 0) cols = found;
        return;
      }
      const id = text(cells[cols.id]);
      if (id) places.set(id, { name: text(cells[cols.name]) || null, lat: coord(cells[cols.lat]), lon: coord(cells[cols.lon]) });
    });
    if (!cols) throw new UpstreamError('parse', `Berlin counting workbook: ${BERLIN_LOCATIONS_SHEET} without its header row`);

    const counters = new Map<number, CountedStation>();
    const lastHour = new Map<CountedStation, { date: string; hour: number }>();
    let newest: { date: string; hour: number } | null = null;
    await wb.eachRow(sheet, (cells) => {
      if (counters.size === 0) {
        cells.forEach((c, i) => {
          const m = i > 0 ? COUNTER_HEADER.exec(text(c)) : null;
          if (!m) return;
          const id = m[1]!.trim();
          const place = places.get(id);
          counters.set(i, { id, name: place?.name ?? id, lat: place?.lat ?? null, lon: place?.lon ?? null, days: new Map() });
        });
        return;
      }
      const at = cells[0];
      if (typeof at !== 'number' || !Number.isFinite(at)) return;
      const { date, hour } = excelWallClock(at, wb.date1904);
      for (const [i, station] of counters) {
        const count = cells[i];
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) continue;
        addCount(station.days, date, count);
        const last = lastHour.get(station);
        if (!last || date > last.date || (date === last.date && hour > last.hour)) lastHour.set(station, { date, hour });
        if (!newest || date > newest.date || (date === newest.date && hour > newest.hour)) newest = { date, hour };
      }
    });
    if (counters.size === 0) throw new UpstreamError('parse', `Berlin counting workbook: ${sheet} without counter columns`);

    // A day whose last hour is not in yet is not the newest complete day.
    for (const [station, last] of lastHour) if (last.hour !== 23) station.days.delete(last.date);
    const stations = [...counters.values()].map((s) => summariseStation(s, BIKE_FEEDS.berlin, 'hour')).filter((s) => s !== null);
    const until = newest as { date: string; hour: number } | null;
    const counted_until = until ? toBerlinIso(berlinLocalToDate(...(until.date.split('-').map(Number) as [number, number, number]), until.hour)) : null;
    return { stations, counted_until, sheet };
  } finally {
    wb.close();
  }
}

export async function fetchBerlin(http: SourceHttp, signal?: AbortSignal): Promise<BerlinCounts> {
  const res = await http.request('', { base: http.url('berlin'), signal });
  return parseBerlinWorkbook(res.body);
}
