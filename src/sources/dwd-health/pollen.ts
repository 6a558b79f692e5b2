import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

/** The eight types in DWD's order of flowering, with English names. */
export const POLLEN_TYPES: readonly (readonly [string, string])[] = [
  ['Hasel', 'hazel'],
  ['Erle', 'alder'],
  ['Esche', 'ash'],
  ['Birke', 'birch'],
  ['Graeser', 'grasses'],
  ['Roggen', 'rye'],
  ['Beifuss', 'mugwort'],
  ['Ambrosia', 'ragweed'],
];

const LEVEL_VALUES: Record<string, number> = { '0': 0, '0-1': 0.5, '1': 1, '1-2': 1.5, '2': 2, '2-3': 2.5, '3': 3 };

export interface PollenDay {
  level: string | null;
  level_value: number | null;
  label: string | null;
  reason: string | null;
}

export interface PollenForecast {
  region: { region_id: number | null; region_name: string | null; partregion_id: number | null; partregion_name: string | null };
  issued_at: string | null;
  next_update_at: string | null;
  /** Day of issue, YYYY-MM-DD (Berlin). */
  issue_date: string | null;
  types: { type: string; type_en: string; today: PollenDay; tomorrow: PollenDay; day_after_tomorrow: PollenDay }[];
}

/**
 * "2026-06-28 11:00 Uhr" (German local time without zone) to a zoned timestamp; "28.06.2026 11:00"
 * is read as well. Null for anything else.
 */
export function readDwdLocalTime(s: string | null | undefined): string | null {
  if (!s) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::\d{2})?(?:\s*Uhr)?$/.exec(s.trim());
  const de = /^(\d{1,2})\.(\d{1,2})\.(\d{4}),?\s+(\d{1,2}):(\d{2})(?:\s*Uhr)?$/.exec(s.trim());
  const parts = iso ? iso.slice(1, 6) : de ? [de[3], de[2], de[1], de[4], de[5]] : null;
  if (!parts) return null;
  const [y, mo, d, h, mi] = parts.map(Number);
  if (y === undefined || mo === undefined || d === undefined || h === undefined || mi === undefined) return null;
  return toBerlinIso(berlinLocalToDate(y, mo, d, h, mi));
}

/** A level as DWD writes it ("0" to "3", "0-1"…, "-1" for none); a missing one is null with its reason. */
const level = z.string().nullish();

/** s31fg.json: the members the forecast reads. The file's own timestamps must be readable: they date the forecast. */
const PollenFileShape = z.looseObject({
  last_update: z
    .string()
    .refine((t) => readDwdLocalTime(t) !== null, 'not a DWD time')
    .nullish(),
  next_update: z
    .string()
    .refine((t) => readDwdLocalTime(t) !== null, 'not a DWD time')
    .nullish(),
  legend: z.record(z.string(), z.string()).nullish(),
  content: z.array(
    z.looseObject({
      region_id: z.number(),
      region_name: z.string().nullish(),
      // -1 for a region without parts
      partregion_id: z.number(),
      partregion_name: z.string().nullish(),
      Pollen: z.record(z.string(), z.looseObject({ today: level, tomorrow: level, dayafter_to: level })),
    }),
  ),
});
export type PollenFile = z.output<typeof PollenFileShape>;

/** The national file checked where it is fetched, before it is shared by every city. */
export const checkPollenFile = (body: unknown): PollenFile => shaped(PollenFileShape, body, 'DWD s31fg');

/** The legend maps idN -> level and idN_desc -> label; turned into level -> label. */
function labels(legend: Record<string, string> | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(legend ?? {})) {
    if (k.endsWith('_desc')) continue;
    const desc = legend?.[`${k}_desc`];
    if (desc !== undefined) out.set(v, desc);
  }
  return out;
}

function toDay(raw: string | null | undefined, legend: Map<string, string>): PollenDay {
  const level = raw?.trim() ?? null;
  if (level === null) return { level: null, level_value: null, label: null, reason: 'not in the DWD file' };
  if (level === '-1') return { level: null, level_value: null, label: null, reason: 'DWD gives no forecast (-1), e.g. outside the season' };
  const value = LEVEL_VALUES[level];
  if (value === undefined) return { level: null, level_value: null, label: null, reason: `unknown DWD level "${level.slice(0, 10)}"` };
  return { level, level_value: value, label: legend.get(level) ?? null, reason: null };
}

/**
 * The forecast of one pollen area: the partregion, or for regions without parts (-1) the region.
 * Null when the file does not list the area.
 */
export function parsePollen(file: PollenFile, regionId: number, partregionId: number): PollenForecast | null {
  const area = file.content.find((a) => (partregionId === -1 ? a.region_id === regionId && a.partregion_id === -1 : a.partregion_id === partregionId));
  if (!area) return null;
  const legend = labels(file.legend);
  const issued = readDwdLocalTime(file.last_update);
  const parts = area.partregion_id !== -1;
  return {
    region: {
      region_id: area.region_id,
      region_name: area.region_name ?? null,
      partregion_id: parts ? area.partregion_id : null,
      partregion_name: parts ? (area.partregion_name ?? null) : null,
    },
    issued_at: issued,
    next_update_at: readDwdLocalTime(file.next_update),
    issue_date: issued ? issued.slice(0, 10) : null,
    types: POLLEN_TYPES.map(([type, type_en]) => {
      const t = area.Pollen[type];
      return { type, type_en, today: toDay(t?.today, legend), tomorrow: toDay(t?.tomorrow, legend), day_after_tomorrow: toDay(t?.dayafter_to, legend) };
    }),
  };
}
