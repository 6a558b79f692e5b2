import { ENCODING_VARY } from '../http/encodings.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findCity } from '../cities/resolve.ts';
import type { Catalog } from '../catalog/index.ts';
import type { DataType } from '../core/data-type.ts';
import { FORMATS, besideRows, rowsOf, shapeOf, type Format } from '../core/formats.ts';
import { attributionOf, type Attribution, type SourceDecl } from '../core/source.ts';
import { tableOf, type Column, type Table } from '../core/table.ts';
import type { z } from '../core/schema.ts';
import { acceptsOtherThanJson, negotiate } from '../http/formats/negotiate.ts';
import { sendTable } from '../http/formats/send.ts';
import { CHANNEL_VARY } from '../http/pagination.ts';
import { addVary } from '../http/send.ts';
import type { Outcome } from '../pipeline/run.ts';
import type { CompareItem } from '../services/compare.ts';

/**
 * The glue between the routes and the format machinery (core/formats.ts, http/formats/*): which
 * format a request gets, and an answer (a data type's outcome, a comparison) as CSV or GeoJSON.
 */

/**
 * The format a request asks for. Plain JSON requests (no `format`, no Accept beyond JSON) are
 * answered without building the type's schema; everything else is negotiated against the
 * formats the type offers (406/422 problems).
 */
export function requestedFormat(req: FastifyRequest, offered: () => readonly Format[]): Format {
  const query = req.query as Record<string, unknown>;
  if (query.format === undefined && !acceptsOtherThanJson(req.headers.accept)) return 'json';
  return negotiate(query, req.headers.accept, offered());
}

const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-');

/** A data type's answer as CSV or GeoJSON: its rows, meta, attribution and licence, with an ETag of its own. */
export function sendDataFormat(req: FastifyRequest, reply: FastifyReply, dt: DataType, o: Outcome, format: Exclude<Format, 'json'>, jsonEtag: string) {
  const shape = shapeOf(dt);
  const data = o.data();
  const beside = besideRows(shape, data);
  return sendTable(req, reply, {
    format,
    table: shape.table,
    rows: rowsOf(shape, data),
    meta: o.meta,
    attribution: o.attribution,
    licences: o.attribution ? [o.attribution] : [],
    ...(beside ? { members: { record: beside } } : {}),
    jsonEtag,
    filename: fileSafe([dt.type, o.city?.slug].filter(Boolean).join('-')),
  });
}

/** Compare answers every format: a row per city, a feature at the city's register point. */
export const COMPARE_FORMATS: readonly Format[] = FORMATS;

const col = (name: string, kind: Column['kind'] = 'scalar'): Column => ({ name, path: name.split('.'), kind });

/** The columns of a comparison: the city's status and value, its attribution, and its data flattened when it is one tabular record. */
function compareTable(catalog: Catalog, resource: string): Table {
  const dt = catalog.byCompareResource.get(resource);
  const columns = [col('city'), col('source_status')];
  if (dt?.compare?.value) columns.push(col('value'));
  columns.push(col('note'), col('attribution.source'), col('attribution.license'), col('attribution.license_url'));
  const shape = dt && !dt.compare?.summarise ? shapeOf(dt) : null;
  if (shape && shape.rows === 'single' && !shape.table.nestedTable)
    columns.push(...shape.table.columns.map((c) => ({ ...c, name: `data.${c.name}`, path: ['data', ...c.path] })));
  else columns.push(col('data', 'json'));
  return { columns, nestedTable: false, position: ['position'], geometry: null };
}

/** A comparison as CSV or GeoJSON; its ETag derives from the JSON answer's basis. */
export function sendCompareFormat(
  req: FastifyRequest,
  reply: FastifyReply,
  catalog: Catalog,
  body: { data: CompareItem[]; meta: Record<string, unknown> },
  format: Exclude<Format, 'json'>,
  jsonEtag: string,
) {
  const rows = body.data.map((item) => {
    const city = findCity(item.city);
    return city ? { ...item, position: { lat: city.lat, lon: city.lon } } : item;
  });
  addVary(reply, `${ENCODING_VARY}, ${CHANNEL_VARY}`);
  const licences = body.data.map((i) => i.attribution as Attribution | null | undefined).filter((a): a is Attribution => !!a);
  return sendTable(req, reply, {
    format,
    table: compareTable(catalog, String(body.meta.resource)),
    rows,
    meta: body.meta,
    attribution: null,
    licences,
    jsonEtag,
    filename: fileSafe(`compare-${String(body.meta.resource)}`),
  });
}

/** The formats of a city's history: its flat rows as JSON or CSV. */
export const HISTORY_FORMATS: readonly Format[] = ['json', 'csv'];

/** A history answer as CSV: one row per point (or bucket) and field; the source answering the city names the licence. */
export function sendHistoryCsv(
  req: FastifyRequest,
  reply: FastifyReply,
  source: SourceDecl | undefined,
  body: { data: unknown; meta: Record<string, unknown> },
  row: Table,
  jsonEtag: string,
) {
  const attribution = source ? attributionOf(source) : null;
  return sendTable(req, reply, {
    format: 'csv',
    table: row,
    rows: Array.isArray(body.data) ? body.data : [],
    meta: body.meta,
    attribution,
    licences: attribution ? [attribution] : [],
    jsonEtag,
    filename: fileSafe(`history-${String(body.meta.type)}-${String(body.meta.city)}`),
  });
}

/**
 * The formats of a service list (cities, sources, coverage), derived from its item schema as a data
 * type's are: JSON and CSV, and GeoJSON when its items carry a position (the cities' centres).
 */
export function listFormats(item: z.ZodType): readonly Format[] {
  const { position } = tableOf(item);
  return FORMATS.filter((f) => f !== 'geojson' || position !== null);
}

/** A service list (or one of its entries) as CSV or GeoJSON: a row per item under its schema's table; no licence of a source. */
export function sendListFormat(
  req: FastifyRequest,
  reply: FastifyReply,
  a: { item: z.ZodType; rows: readonly unknown[]; meta: Record<string, unknown>; format: Exclude<Format, 'json'>; jsonEtag: string; filename: string },
) {
  return sendTable(req, reply, {
    format: a.format,
    table: tableOf(a.item),
    rows: a.rows,
    meta: a.meta,
    attribution: null,
    licences: [],
    jsonEtag: a.jsonEtag,
    filename: fileSafe(a.filename),
  });
}
