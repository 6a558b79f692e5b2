import type { DataType } from './data-type.ts';
import { published, z } from './schema.ts';
import { tableOf, unwrapped, type Table } from './table.ts';

/**
 * The representations a data type answers in, derived from its record schema: JSON always; CSV
 * when its answer is a table (a list, or a single record without nested lists); GeoJSON when it is
 * a list whose items carry a position (`lat`/`lon`, on the item or a nested object). A type whose
 * derivation is wrong declares `formats` (data-type.ts) to override it.
 */
export const FORMATS = ['json', 'csv', 'geojson'] as const;
export type Format = (typeof FORMATS)[number];

/** What a CSV row or GeoJSON feature is for a data type. */
export interface Shape {
  /** `list`: one row per item; `single`: the record is the one row. */
  rows: 'list' | 'single';
  /** The record member holding the list (`list: 'points'`), or null when `data` itself is the list or the record. */
  listKey: string | null;
  /** The schema of one row. */
  item: z.ZodType;
  table: Table;
}

const shapes = new WeakMap<DataType['record'], Shape>();

/** The row schema of a data type (built on first use; its schemas are lazy). */
export function shapeOf(dt: DataType): Shape {
  let s = shapes.get(dt.record);
  if (!s) {
    const record = unwrapped(dt.record());
    let item: z.ZodType = record;
    let rows: Shape['rows'] = 'single';
    let listKey: string | null = null;
    if (dt.list === true) rows = 'list';
    else if (typeof dt.list === 'string' && record instanceof z.ZodObject) {
      const member = unwrapped((record.shape as Record<string, z.ZodType>)[dt.list] ?? z.never());
      if (member instanceof z.ZodArray) [item, rows, listKey] = [member.element as z.ZodType, 'list', dt.list];
    } else if (record instanceof z.ZodArray) [item, rows] = [record.element as z.ZodType, 'list'];
    s = { rows, listKey, item, table: tableOf(item) };
    shapes.set(dt.record, s);
  }
  return s;
}

const offered = new WeakMap<DataType, readonly Format[]>();

/** The formats a data type offers, JSON first. */
export function formatsOf(dt: DataType): readonly Format[] {
  let f = offered.get(dt);
  if (!f) {
    const { rows, table } = shapeOf(dt);
    const csv = dt.formats?.csv ?? (rows === 'list' || !table.nestedTable);
    const geojson = dt.formats?.geojson ?? (rows === 'list' && table.position !== null);
    f = FORMATS.filter((x) => x === 'json' || (x === 'csv' && csv) || (x === 'geojson' && geojson));
    offered.set(dt, f);
  }
  return f;
}

/** The rows of an answer's `data` (none for null: no_data, disabled, not_covered). */
export function rowsOf(shape: Shape, data: unknown): readonly unknown[] {
  if (data === null || data === undefined) return [];
  if (shape.rows === 'single') return [data];
  const list = shape.listKey === null ? data : (data as Record<string, unknown>)[shape.listKey];
  return Array.isArray(list) ? list : [];
}

/** The members of a record beside its list (`edition_date`, `aggregates` next to `points`), or null. */
export function besideRows(shape: Shape, data: unknown): Record<string, unknown> | null {
  if (shape.listKey === null || data === null || typeof data !== 'object') return null;
  const { [shape.listKey]: _rows, ...rest } = data as Record<string, unknown>;
  return rest;
}

const rowSchemas = new WeakMap<DataType['record'], z.ZodType>();

/**
 * The schema of one row's JSON values: a GeoJSON feature's `properties` (a CSV row before its
 * cells are text). Where every column is a field of the item (no nested object flattened, no
 * field left out, the geometry aside), that is the item's own schema; else a column has its
 * field's schema, null where the field is left out or sits in an object that is null.
 */
export function rowSchemaOf(dt: DataType): z.ZodType {
  let s = rowSchemas.get(dt.record);
  if (!s) {
    const { item, table } = shapeOf(dt);
    const record = unwrapped(item);
    if (flatRows(dt) && record instanceof z.ZodObject) s = published(table.geometry ? record.omit({ [table.geometry]: true } as Record<string, true>) : record);
    else {
      const shape: Record<string, z.ZodType> = {};
      for (const c of table.columns) if (c.name !== table.geometry) shape[c.name] = columnSchema(item, c.path);
      s = z.strictObject(shape);
    }
    rowSchemas.set(dt.record, s);
  }
  return s;
}

/** Whether a row holds the item's own fields: no nested object flattened, no field that may be left out (a row has it as null). */
function flatRows(dt: DataType): boolean {
  const { item, table } = shapeOf(dt);
  const record = unwrapped(item);
  const fields = record instanceof z.ZodObject ? Object.values(record.shape as Record<string, z.ZodType>) : [];
  return table.columns.every((c) => c.path.length === 1) && fields.every((f) => !f.safeParse(undefined).success || f.safeParse(null).success);
}

function columnSchema(item: z.ZodType, path: readonly string[]): z.ZodType {
  let s = unwrapped(item);
  let orNull = false;
  for (const [i, key] of path.entries()) {
    const field = (s as z.ZodObject).shape[key] as z.ZodType;
    orNull ||= field.safeParse(undefined).success || field.safeParse(null).success;
    s = i < path.length - 1 ? unwrapped(field) : field;
  }
  const leaf = published(s instanceof z.ZodOptional ? (s.unwrap() as z.ZodType) : s);
  if (!orNull || leaf.safeParse(null).success) return leaf;
  const description = (leaf.meta() as { description?: string } | undefined)?.description;
  return description ? leaf.nullable().meta({ description }) : leaf.nullable();
}
