import { createHash } from 'node:crypto';
import { toBerlinIso } from '../core/time.ts';
import type { FieldGaps, Row, Shaped } from './store.ts';

/** Rows per JSON chunk: a CSV answer parses one chunk at a time, so no single step holds the event loop long. */
const CHUNK_ROWS = 1000;

/** Decimals of a bucket's mean: SQLite and PostgreSQL average in different orders and differ in the last binary digits. */
const MEAN_DECIMALS = 1e3;

const roundMean = (v: number | null) => (v === null ? null : Math.round(v * MEAN_DECIMALS) / MEAN_DECIMALS);

/** Rows (ordered by field, then time) to JSON chunks with zoned times, and each field's gaps between buckets of `everyMs`. */
export function shapeRows(rows: readonly Row[], everyMs: number, gapsListed: number): Shaped {
  const chunks: string[] = [];
  const gaps: Record<string, FieldGaps> = {};
  let part: unknown[] = [];
  let backfilled = false;
  let prev: Row | null = null;
  for (const r of rows) {
    backfilled ||= r.backfilled;
    if (everyMs > 0) {
      const g = (gaps[r.field] ??= { count: 0, spans: [] });
      if (prev && prev.field === r.field && r.t - prev.t > everyMs) {
        if (g.spans.length < gapsListed) g.spans.push({ from: toBerlinIso(prev.t + everyMs), to: toBerlinIso(r.t) });
        g.count++;
      }
      part.push({ t: toBerlinIso(r.t), field: r.field, min: r.min, mean: roundMean(r.mean), max: r.max, n: r.n, backfilled: r.backfilled });
    } else {
      part.push({ as_of: toBerlinIso(r.t), field: r.field, value: r.mean, backfilled: r.backfilled });
    }
    prev = r;
    if (part.length === CHUNK_ROWS) {
      chunks.push(JSON.stringify(part).slice(1, -1));
      part = [];
    }
  }
  if (part.length) chunks.push(JSON.stringify(part).slice(1, -1));
  // Bytes, not strings: moved to the main thread without a copy and kept outside its heap, where they cost the garbage collector nothing.
  const text = chunks.join(',');
  const data = new Uint8Array(Buffer.byteLength(text));
  Buffer.from(data.buffer).write(text);
  const offsets: number[] = [];
  let at = 0;
  for (const c of chunks) {
    offsets.push(at);
    at += Buffer.byteLength(c) + 1;
  }
  return { data, offsets, digest: createHash('sha256').update(data).digest('base64url'), total: rows.length, backfilled, gaps };
}

/** Rows as columns (typed arrays), cheap to move between threads; NaN stands for null. */
export interface PackedRows {
  fields: string[];
  field: Uint16Array;
  t: Float64Array;
  min: Float64Array;
  mean: Float64Array;
  max: Float64Array;
  n: Float64Array;
  backfilled: Uint8Array;
}

const nan = (v: number | null) => (v === null ? NaN : v);
const nul = (v: number) => (Number.isNaN(v) ? null : v);

export function packRows(rows: readonly Row[]): PackedRows {
  const fields: string[] = [];
  const index = new Map<string, number>();
  const p: PackedRows = {
    fields,
    field: new Uint16Array(rows.length),
    t: new Float64Array(rows.length),
    min: new Float64Array(rows.length),
    mean: new Float64Array(rows.length),
    max: new Float64Array(rows.length),
    n: new Float64Array(rows.length),
    backfilled: new Uint8Array(rows.length),
  };
  rows.forEach((r, i) => {
    let f = index.get(r.field);
    if (f === undefined) index.set(r.field, (f = fields.push(r.field) - 1));
    p.field[i] = f;
    p.t[i] = r.t;
    p.min[i] = nan(r.min);
    p.mean[i] = nan(r.mean);
    p.max[i] = nan(r.max);
    p.n[i] = r.n;
    p.backfilled[i] = r.backfilled ? 1 : 0;
  });
  return p;
}

export function unpackRows(p: PackedRows): Row[] {
  const out: Row[] = new Array<Row>(p.t.length);
  for (let i = 0; i < p.t.length; i++)
    out[i] = {
      field: p.fields[p.field[i]!]!,
      t: p.t[i]!,
      min: nul(p.min[i]!),
      mean: nul(p.mean[i]!),
      max: nul(p.max[i]!),
      n: p.n[i]!,
      backfilled: p.backfilled[i] === 1,
    };
  return out;
}

/** The buffers a packed set of rows moves (transferred, not copied, to the other thread). */
export function packedBuffers(p: PackedRows): ArrayBuffer[] {
  return [p.field, p.t, p.min, p.mean, p.max, p.n, p.backfilled].map((a) => a.buffer as ArrayBuffer);
}

/** The shaped answer, or null when the rows exceed `limit` (the caller answers that the request asks for too much). */
export function answerOf(rows: readonly Row[], everyMs: number, limit: number, gapsListed: number): Shaped | null {
  return rows.length > limit ? null : shapeRows(rows, everyMs, gapsListed);
}
