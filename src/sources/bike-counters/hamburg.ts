import type { SourceHttp } from '../../core/adapter-http.ts';
import type { BikeCountStationRecord } from '../../core/records/mobility.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { decodeText, delimitedRows, findHeader } from '../../core/delimited.ts';
import { BIKE_FEEDS } from './source.ts';
import { addCount, summariseStation } from './days.ts';

/**
 * The export has no coordinates; the WFS HH_WFS_Dauerzaehlstellen_Rad places the one open station
 * ("An der Gurlittinsel") at this point (upstreams-transport.md §12). The WFS answers GML only.
 */
const GURLITTINSEL = { lat: 53.55924, lon: 10.00848 };
const COLUMNS = ['Datum', 'Zeitraum (von)', 'Anzahl Fahrräder'] as const;

/**
 * export_radverkehr.csv: line 1 the station name (`Gurlittinsel;;`), then the header
 * `Datum;Zeitraum (von);Anzahl Fahrräder` and one row per hour (`TT.MM.JJJJ;HH:MM Uhr;N`), oldest
 * first. Hours are summed to days; the newest day counts only when its last hour (23:00) is in.
 */
export function parseHamburgExport(text: string): BikeCountStationRecord[] {
  const rows = delimitedRows(text, { label: 'Hamburg bicycle count export' });
  const header = findHeader(rows, COLUMNS);
  if (!header) throw new UpstreamError('parse', 'Hamburg bicycle count export without its header row');
  const [dateCol, hourCol, countCol] = COLUMNS.map((c) => header.col.get(c)!);
  const name = rows[0]?.[0] || null;
  const days = new Map<string, number>();
  let lastDate = '';
  let lastHour = -1;
  for (const cells of rows.slice(header.at + 1)) {
    const d = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(cells[dateCol!] ?? '');
    const h = /^(\d{1,2}):\d{2}/.exec(cells[hourCol!] ?? '');
    const count = Number(cells[countCol!]);
    if (!d || !h || cells[countCol!] === '' || !Number.isInteger(count) || count < 0) continue;
    const date = `${d[3]}-${d[2]}-${d[1]}`;
    addCount(days, date, count);
    if (date >= lastDate) [lastDate, lastHour] = [date, Number(h[1])];
  }
  // A day still being counted is not the latest day yet.
  if (lastDate && lastHour !== 23) days.delete(lastDate);
  const station = summariseStation({ id: 'gurlittinsel', name, ...GURLITTINSEL, days }, BIKE_FEEDS.hamburg, 'hour');
  return station ? [station] : [];
}

export async function fetchHamburg(http: SourceHttp, signal?: AbortSignal): Promise<BikeCountStationRecord[]> {
  const res = await http.request('/export_radverkehr.csv', { signal });
  return parseHamburgExport(decodeText(res.body));
}
