import { z } from '../../core/schema.ts';
import { tableOf, valueAt, type Column } from '../../core/table.ts';

/**
 * RFC 4180 CSV: UTF-8, comma-separated, CRLF line ends, a header row, a cell quoted when it holds
 * a quote, comma, semicolon or line break (semicolons too, so tools that guess `;` as the
 * separator, as German spreadsheets do, still see one cell). null is an empty cell; arrays and
 * maps are their JSON text.
 */
export const CSV_TYPE = 'text/csv; charset=utf-8; header=present';

/** Rows per chunk of a streamed answer: large enough that the stream's overhead vanishes, small enough to stay flat. */
const ROWS_PER_CHUNK = 256;

function quoted(s: string): string {
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One cell's text. */
export function csvCell(value: unknown, kind: Column['kind']): string {
  if (value === null || value === undefined) return '';
  if (kind === 'json' || typeof value === 'object') return quoted(JSON.stringify(value));
  return quoted(String(value));
}

function line(columns: readonly Column[], row: unknown): string {
  let out = '';
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    out += (i ? ',' : '') + csvCell(valueAt(row, c.path), c.kind);
  }
  return out + '\r\n';
}

/** The header row, then the rows in chunks: what a streamed CSV answer writes. */
export function* csvChunks(columns: readonly Column[], rows: Iterable<unknown>): Generator<string> {
  yield columns.map((c) => quoted(c.name)).join(',') + '\r\n';
  let chunk = '';
  let n = 0;
  for (const row of rows) {
    chunk += line(columns, row);
    if (++n === ROWS_PER_CHUNK) {
      yield chunk;
      chunk = '';
      n = 0;
    }
  }
  if (chunk) yield chunk;
}

/**
 * Rows as one CSV text, columns derived from a row schema (core/table.ts) or given: for any
 * route that answers records (history, compare), not only data types.
 */
export function toCsv(rows: Iterable<unknown>, schemaOrColumns: z.ZodType | readonly Column[]): string {
  const columns = schemaOrColumns instanceof z.ZodType ? tableOf(schemaOrColumns).columns : schemaOrColumns;
  let out = '';
  for (const chunk of csvChunks(columns, rows)) out += chunk;
  return out;
}
