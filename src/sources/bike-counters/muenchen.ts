import type { SourceHttp } from '../../core/adapter-http.ts';
import type { BikeCountStationRecord } from '../../core/records/mobility.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { delimitedRows, findHeader } from '../../core/delimited.ts';
import { BIKE_FEEDS } from './source.ts';
import { addCount, summariseStation, type CountedStation } from './days.ts';

export const MUENCHEN_STATION_LAYER = 'mor_wfs:raddauerzaehlstellen';
export const muenchenPackage = (year: number) => `daten-der-raddauerzaehlstellen-muenchen-${year}`;
const DAILY_FILE = /_tage\.csv$/i;

interface StationFeature {
  properties?: { zaehlstelle?: unknown; zaehlstelle_lang?: unknown; latitude?: unknown; longitude?: unknown } | null;
}
interface PackageShow {
  result?: { resources?: { url?: unknown }[] } | null;
}

/** A GeoJSON layer: `features` is what is read; each feature's members are read tolerantly below. */
const LayerShape = z.looseObject({ features: z.array(z.unknown()) });

const coord = (v: unknown) => (v === null || v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));

/** Station layer: `zaehlstelle` (the short name the CSV rows use), `zaehlstelle_lang`, `latitude`, `longitude`. */
export function parseMuenchenStations(body: unknown): Map<string, CountedStation> {
  const { features } = shaped(LayerShape, body, 'München counting station layer');
  const out = new Map<string, CountedStation>();
  for (const f of features as StationFeature[]) {
    const p = f && typeof f === 'object' ? f.properties : null;
    const id = typeof p?.zaehlstelle === 'string' ? p.zaehlstelle.trim() : '';
    if (!id) continue;
    const name = typeof p?.zaehlstelle_lang === 'string' && p.zaehlstelle_lang.trim() ? p.zaehlstelle_lang.trim() : id;
    out.set(id, { id, name, lat: coord(p?.latitude), lon: coord(p?.longitude), days: new Map() });
  }
  return out;
}

/**
 * A monthly `rad_YYYY_MM_tage.csv`: `datum,uhrzeit_start,uhrzeit_ende,zaehlstelle,richtung_1,richtung_2,gesamt,…`,
 * one row per station and day, fields padded with blanks, `datum` as YYYY.MM.DD. Rows of stations the
 * layer does not list are skipped (they cannot be placed).
 */
export function addMuenchenDays(text: string, stations: Map<string, CountedStation>) {
  const rows = delimitedRows(text, { label: 'München daily count file', delimiter: ',' });
  const header = findHeader(rows, ['datum', 'zaehlstelle', 'gesamt']);
  if (!header) throw new UpstreamError('parse', 'München daily count file without its header row');
  const [dateCol, stationCol, totalCol] = ['datum', 'zaehlstelle', 'gesamt'].map((c) => header.col.get(c)!);
  for (const cells of rows.slice(header.at + 1)) {
    const d = /^(\d{4})[.-](\d{2})[.-](\d{2})$/.exec(cells[dateCol!] ?? '');
    const station = stations.get(cells[stationCol!] ?? '');
    const count = Number(cells[totalCol!]);
    if (!d || !station || cells[totalCol!] === '' || !Number.isInteger(count) || count < 0) continue;
    addCount(station.days, `${d[1]}-${d[2]}-${d[3]}`, count);
  }
}

/** The two newest monthly daily files of the year's package (two, so that the seven days reach into the previous month). */
export function newestDailyFiles(pkg: PackageShow): string[] {
  const urls = (pkg.result?.resources ?? []).map((r) => r?.url).filter((u): u is string => typeof u === 'string' && DAILY_FILE.test(u));
  const name = (u: string) => u.split('/').at(-1) ?? u;
  return urls.sort((a, b) => name(b).localeCompare(name(a))).slice(0, 2);
}

/**
 * Station layer from the geoportal WFS, then the year's CKAN package (the previous year's early in
 * January, before the new package exists) and its two newest daily files. A resource is fetched by
 * its path under the configured portal URL: a link to another host is never followed.
 */
export async function fetchMuenchen(http: SourceHttp, now: Date, signal?: AbortSignal): Promise<BikeCountStationRecord[]> {
  const layer = await http.json<unknown>('', {
    base: http.url('muenchen_wfs'),
    signal,
    query: {
      service: 'WFS',
      version: '1.0.0',
      request: 'GetFeature',
      typeName: MUENCHEN_STATION_LAYER,
      outputFormat: 'application/json',
      srsName: 'EPSG:4326',
    },
  });
  const stations = parseMuenchenStations(layer);
  const portal = http.url('muenchen_ckan');
  let files: string[] = [];
  for (const year of [now.getUTCFullYear(), now.getUTCFullYear() - 1]) {
    const res = await http.request('/api/3/action/package_show', { base: portal, signal, query: { id: muenchenPackage(year) }, okStatuses: [404] });
    if (res.status === 404) continue;
    let pkg: PackageShow;
    try {
      pkg = JSON.parse(res.body.toString('utf8')) as PackageShow;
    } catch {
      throw new UpstreamError('parse', 'München open-data portal answer is not JSON');
    }
    files = newestDailyFiles(pkg);
    if (files.length > 0) break;
  }
  if (files.length === 0) throw new UpstreamError('parse', 'München open-data portal lists no daily count file for this or last year');
  for (const file of files.reverse()) {
    const path = new URL(file, 'https://opendata.muenchen.de').pathname;
    addMuenchenDays(await http.text(path, { base: portal, signal }), stations);
  }
  return [...stations.values()].map((s) => summariseStation(s, BIKE_FEEDS.muenchen, 'day')).filter((s) => s !== null);
}
