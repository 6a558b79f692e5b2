import { RAW_KEYS } from './normalise.ts';
import { z } from './schema.ts';

/**
 * The tabular form of a record schema: which columns a CSV row has (and in which order), and
 * where a GeoJSON feature finds its position. Derived from the zod schema alone, so a new data
 * type gets CSV and GeoJSON without a line written for it.
 *
 * - Nested objects flatten to dotted names (`station.name`, `today.level`); a null object leaves
 *   its columns empty.
 * - Arrays, free-form maps (`units`) and the verbatim upstream members (`raw`, `geometry`) are one
 *   cell holding their JSON text: nothing is dropped, and the column count stays fixed.
 * - Deprecated twins are never columns (the canonical schema has none; `published()` adds them).
 */
export interface Column {
  /** The header: the dotted path. */
  name: string;
  path: readonly string[];
  /** `json`: the value is written as JSON text (arrays, maps, verbatim upstream members). */
  kind: 'scalar' | 'json';
}

export interface Table {
  columns: readonly Column[];
  /** The record holds an array of records (a nested table): it has no one-row form. */
  nestedTable: boolean;
  /** The object path holding `lat` and `lon` ([] for the item itself), or null. */
  position: readonly string[] | null;
  /** A member holding a GeoJSON geometry as the source gave it (e.g. a road's LineString), or null. */
  geometry: string | null;
}

/** Strips nullable/optional wrappers: the column of `x: T | null` is the column of `x: T`. */
export function unwrapped(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodNullable || s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
  return s;
}

const isObject = (s: z.ZodType): s is z.ZodObject => s instanceof z.ZodObject;

/** Whether a schema is (or may be) a record or a list of them, i.e. would need a table of its own. */
function holdsRecords(s: z.ZodType): boolean {
  const u = unwrapped(s);
  if (isObject(u) || u instanceof z.ZodRecord) return true;
  if (u instanceof z.ZodArray) return holdsRecords(u.element as z.ZodType);
  if (u instanceof z.ZodUnion) return (u.options as z.ZodType[]).some(holdsRecords);
  return false;
}

function isScalar(s: z.ZodType): boolean {
  const u = unwrapped(s);
  if (u instanceof z.ZodUnion) return (u.options as z.ZodType[]).every(isScalar);
  return !(isObject(u) || u instanceof z.ZodArray || u instanceof z.ZodRecord || u instanceof z.ZodUnknown || u instanceof z.ZodAny);
}

const tables = new WeakMap<z.ZodType, Table>();

/** The table of one record schema (memoised per schema instance). */
export function tableOf(item: z.ZodType): Table {
  let t = tables.get(item);
  if (!t) {
    const columns: Column[] = [];
    const state = { nestedTable: false };
    flatten(item, [], columns, state);
    const root = unwrapped(item);
    t = {
      columns,
      nestedTable: state.nestedTable,
      position: isObject(root) ? positionIn(root) : null,
      geometry: isObject(root) && isGeometry(root.shape.geometry as z.ZodType | undefined) ? 'geometry' : null,
    };
    tables.set(item, t);
  }
  return t;
}

function flatten(schema: z.ZodType, path: string[], out: Column[], state: { nestedTable: boolean }) {
  const s = unwrapped(schema);
  const name = path.join('.');
  if (isObject(s)) {
    for (const [key, value] of Object.entries(s.shape as Record<string, z.ZodType>)) {
      if ((value.meta() as { deprecated?: boolean } | undefined)?.deprecated) continue;
      // Verbatim upstream members keep the upstream's shape: one JSON cell.
      if (RAW_KEYS.has(key)) out.push({ name: [...path, key].join('.'), path: [...path, key], kind: 'json' });
      else flatten(value, [...path, key], out, state);
    }
    return;
  }
  if (s instanceof z.ZodArray && holdsRecords(s.element as z.ZodType)) state.nestedTable = true;
  out.push({ name, path, kind: isScalar(s) ? 'scalar' : 'json' });
}

/** The shallowest object (the item itself, then nested objects breadth first, in field order) with numeric `lat` and `lon`. */
function positionIn(root: z.ZodObject): string[] | null {
  const queue: [z.ZodObject, string[]][] = [[root, []]];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [o, path] = next;
    const shape = o.shape as Record<string, z.ZodType>;
    const numeric = (k: string) => shape[k] !== undefined && unwrapped(shape[k]) instanceof z.ZodNumber;
    if (numeric('lat') && numeric('lon')) return path;
    for (const [k, v] of Object.entries(shape)) {
      const u = unwrapped(v);
      if (!RAW_KEYS.has(k) && isObject(u)) queue.push([u, [...path, k]]);
    }
  }
  return null;
}

function isGeometry(s: z.ZodType | undefined): boolean {
  if (!s) return false;
  const u = unwrapped(s);
  return isObject(u) && 'type' in u.shape && 'coordinates' in u.shape;
}

/** The value at a path of a record (undefined when a step is missing or null). */
export function valueAt(record: unknown, path: readonly string[]): unknown {
  let v: unknown = record;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
