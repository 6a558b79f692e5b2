import { gunzipSync } from 'node:zlib';
import { distanceKm } from '../../cities/register.ts';
import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { delimitedRows } from '../../core/delimited.ts';

export interface FireStation {
  id: string;
  name: string;
  state: string | null;
  lat: number;
  lon: number;
  height_m: number | null;
}

/**
 * The stations list: Latin-1, fixed width, ";"-separated, one header line
 * ("Stationsindex; Höhe in m;Breite   ;Länge    ;Name ...;Bundesland").
 */
export function parseFireStations(text: string): FireStation[] {
  const [header, ...rows] = delimitedRows(text, { label: 'DWD fire stations list' });
  if (header === undefined) throw new UpstreamError('parse', 'DWD fire stations list is empty');
  const head = header.map((h) => h.toLowerCase());
  const col = (pred: (h: string) => boolean) => head.findIndex(pred);
  const idx = {
    id: col((h) => h.startsWith('stations')),
    height: col((h) => h.startsWith('h')),
    lat: col((h) => h.startsWith('breite')),
    lon: col((h) => h.startsWith('l') && h.includes('nge')),
    name: col((h) => h === 'name'),
    state: col((h) => h.startsWith('bundesland')),
  };
  if (idx.id < 0 || idx.lat < 0 || idx.lon < 0) throw new UpstreamError('parse', 'DWD fire stations list without id or coordinates');
  const out: FireStation[] = [];
  for (const f of rows) {
    const lat = Number(f[idx.lat]);
    const lon = Number(f[idx.lon]);
    const id = f[idx.id];
    if (!id || !/^\d+$/.test(id) || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    const height = idx.height >= 0 ? Number(f[idx.height]) : NaN;
    out.push({
      id,
      name: (idx.name >= 0 ? f[idx.name] : '') || id,
      state: idx.state >= 0 ? f[idx.state] || null : null,
      lat,
      lon,
      height_m: Number.isFinite(height) ? height : null,
    });
  }
  return out;
}

export function nearestFireStation(stations: readonly FireStation[], lat: number, lon: number): (FireStation & { distance_km: number }) | null {
  let best: (FireStation & { distance_km: number }) | null = null;
  for (const s of stations) {
    const d = distanceKm(lat, lon, s.lat, s.lon);
    if (!best || d < best.distance_km) best = { ...s, distance_km: d };
  }
  return best && { ...best, distance_km: Math.round(best.distance_km * 10) / 10 };
}

export interface FireRun {
  /** Model run time, zoned. */
  run_at: string;
  /** Levels 1..5 for day 0..6 (null: no value). */
  levels: (number | null)[];
}

/** Body of a station file: gzipped as published (".csv.gz"); plain text accepted as well. */
export function unpack(body: Buffer): string {
  if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) {
    try {
      return gunzipSync(body).toString('latin1');
    } catch {
      throw new UpstreamError('parse', 'DWD fire station file is not valid gzip');
    }
  }
  return body.toString('latin1');
}

/**
 * `StationsID;Termin;wbi_0;...;wbi_6` (glfi_ for grassland): one row per daily run, the last
 * row is the current one. Termin is the run time in UTC ("20260911 04:14").
 */
export function latestRun(csv: string, prefix: 'wbi' | 'glfi'): FireRun | null {
  const [header, ...rows] = delimitedRows(csv, { label: `DWD fire station file (${prefix})` });
  if (header === undefined) return null;
  const head = header.map((h) => h.toLowerCase());
  const termin = head.indexOf('termin');
  const dayCols = Array.from({ length: 7 }, (_, i) => head.indexOf(`${prefix}_${i}`));
  if (termin < 0 || (dayCols[0] ?? -1) < 0) throw new UpstreamError('parse', `DWD fire station file without Termin or ${prefix}_0`);
  let best: { t: string; f: string[] } | null = null;
  for (const f of rows) {
    const t = f[termin];
    if (t === undefined || !/^\d{8} \d{2}:\d{2}$/.test(t)) continue;
    if (!best || t > best.t) best = { t, f };
  }
  if (!best) return null;
  const t = best.t;
  const runAt = new Date(Date.UTC(+t.slice(0, 4), +t.slice(4, 6) - 1, +t.slice(6, 8), +t.slice(9, 11), +t.slice(12, 14)));
  const row = best.f;
  return {
    run_at: toBerlinIso(runAt),
    levels: dayCols.map((c) => {
      if (c < 0) return null;
      const n = Number(row[c]);
      return Number.isInteger(n) && n >= 1 && n <= 5 ? n : null;
    }),
  };
}
