import { distanceKm } from '../../cities/register.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

/** One measuring station from stations/json, reduced to what the air types need. */
export interface UbaStation {
  id: string;
  code: string;
  name: string;
  /** UBA's "station city": the municipality name, no key. */
  place: string | null;
  lat: number;
  lon: number;
  active_from: string | null;
  active_to: string | null;
  setting: string | null;
  station_type: string | null;
  network: string | null;
  street: string | null;
  house_number: string | null;
  post_code: string | null;
}

/** The columns the air types read, by their names in `indices`; id and coordinates are required. */
const COLUMNS = {
  id: ['station id'],
  code: ['station code'],
  name: ['station name'],
  city: ['station city'],
  from: ['station active from'],
  to: ['station active to'],
  lon: ['station longitude'],
  lat: ['station latitude'],
  setting: ['station setting name'],
  type: ['station type name'],
  network: ['network name'],
  street: ['station street'],
  nr: ['station street nr'],
  // "station zip" in some answers, "station zip code" in others
  zip: ['station zip code', 'station zip'],
} as const;
type Column = keyof typeof COLUMNS;
const REQUIRED: readonly Column[] = ['id', 'lat', 'lon'];

const text = z.string().nullable();
const coordinate = z.string().refine((v) => v.trim() !== '' && Number.isFinite(Number(v)), 'not a number');
const CELL: Partial<Record<Column, z.ZodType>> = { id: z.string().min(1), lat: coordinate, lon: coordinate };

const columnOf = (names: readonly string[], column: Column) => {
  for (const c of COLUMNS[column]) {
    const i = names.findIndex((n) => n.toLowerCase() === c);
    if (i >= 0) return i;
  }
  return -1;
};

const StationList = z.looseObject({
  indices: z.array(z.string()).refine((names) => REQUIRED.every((c) => columnOf(names, c) >= 0), 'no station id or coordinates'),
  data: z.record(z.string(), z.array(z.unknown())),
});

/**
 * stations/json rows are positional arrays described by `indices`: a row of another length than `indices` is read
 * as drift (its values would land in the wrong columns), and so is a read cell of another type. Columns are looked
 * up by name because the last one is named differently between answers.
 */
export function parseStations(body: unknown): UbaStation[] {
  const { indices, data } = shaped(StationList, body, 'UBA stations');
  const idx = Object.fromEntries((Object.keys(COLUMNS) as Column[]).map((c) => [c, columnOf(indices, c)])) as Record<Column, number>;
  const read = new Map((Object.entries(idx) as [Column, number][]).map(([c, i]) => [i, c]));
  const cells = indices.map((_, i) => {
    const column = read.get(i);
    return column === undefined ? z.unknown() : (CELL[column] ?? text);
  });
  const rowShape = z
    .array(z.unknown())
    .length(indices.length, 'not one value per name in indices')
    .pipe(z.tuple(cells as [z.ZodType, ...z.ZodType[]]));
  const rows: Record<string, unknown[]> = shaped(z.record(z.string(), rowShape), data, 'UBA stations', ['data']);
  const str = (row: unknown[], i: number): string | null => {
    if (i < 0) return null;
    const v = row[i] as string | null;
    return v || null;
  };
  return Object.values(rows).map((row) => {
    const id = row[idx.id] as string;
    return {
      id,
      code: str(row, idx.code) ?? id,
      name: str(row, idx.name) ?? id,
      place: str(row, idx.city),
      lat: Number(row[idx.lat]),
      lon: Number(row[idx.lon]),
      active_from: str(row, idx.from),
      active_to: str(row, idx.to),
      setting: str(row, idx.setting),
      station_type: str(row, idx.type),
      network: str(row, idx.network),
      street: str(row, idx.street),
      house_number: str(row, idx.nr),
      post_code: str(row, idx.zip),
    };
  });
}

/** Active on `today` (YYYY-MM-DD): started, and no end date or one not yet passed. */
export function isActive(s: UbaStation, today: string): boolean {
  if (s.active_from && s.active_from.slice(0, 10) > today) return false;
  return s.active_to === null || s.active_to.slice(0, 10) >= today;
}

export interface StationAt extends UbaStation {
  distance_km: number;
}

/** Active stations within `maxKm` of a point, nearest first. */
export function nearestActive(stations: readonly UbaStation[], lat: number, lon: number, today: string, maxKm: number): StationAt[] {
  return stations
    .filter((s) => isActive(s, today))
    .map((s) => ({ ...s, distance_km: Math.round(distanceKm(lat, lon, s.lat, s.lon) * 10) / 10 }))
    .filter((s) => s.distance_km <= maxKm)
    .sort((a, b) => a.distance_km - b.distance_km);
}
