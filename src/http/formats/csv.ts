import { ProblemError } from '../../core/problem.ts';
import { valueAt, type Column } from '../../core/table.ts';

/**
 * RFC 4180 CSV: UTF-8, comma-separated, CRLF line ends, a header row, a cell quoted when it holds
 * a quote, comma, semicolon or line break (semicolons too, so tools that guess `;` as the
 * separator, as German spreadsheets do, still see one cell). null is an empty cell; arrays and
 * maps are their JSON text. A text cell a spreadsheet would take for a formula is neutralised.
 */
export const CSV_TYPE = 'text/csv; charset=utf-8; header=present';

/** Rows per chunk of a streamed answer: large enough that the stream's overhead vanishes, small enough to stay flat. */
const ROWS_PER_CHUNK = 256;

/** UTF-8 byte order mark, for spreadsheet programs that read CSV without it in a legacy code page (`?bom=1`). */
export const CSV_BOM = '\uFEFF';

/** `?bom=1` (or `true`): the CSV starts with a BOM; `0`, `false` or none: it does not. Another value is a 422. */
export function wantsBom(query: unknown): boolean {
  const v = (query as Record<string, unknown> | null | undefined)?.bom;
  if (v === undefined || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new ProblemError(
    'invalid_parameter',
    '"bom" must be 1 or 0.',
    'Use bom=1 for a CSV with a UTF-8 byte order mark (for spreadsheet programs), or leave it out.',
    {
      parameter: 'bom',
    },
  );
}

function quoted(s: string): string {
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** What spreadsheet programs read as the start of a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text as a cell that no spreadsheet evaluates: one starting like a formula gets a leading `'` and
 * is quoted, as OWASP recommends; other text as it is. Only text: a number, even a negative one,
 * stays a number.
 */
function textCell(s: string): string {
  return FORMULA_START.test(s) ? `"'${s.replace(/"/g, '""')}"` : quoted(s);
}

/** One cell's text. */
export function csvCell(value: unknown, kind: Column['kind']): string {
  if (value === null || value === undefined) return '';
  if (kind === 'json' || typeof value === 'object') return quoted(JSON.stringify(value));
  return typeof value === 'string' ? textCell(value) : quoted(String(value));
}

function line(columns: readonly Column[], row: unknown): string {
  let out = '';
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    out += (i ? ',' : '') + csvCell(valueAt(row, c.path), c.kind);
  }
  return out + '\r\n';
}

/** The header row (after a BOM when asked), then the rows in chunks: what a streamed CSV answer writes. */
export function* csvChunks(columns: readonly Column[], rows: Iterable<unknown>, bom = false): Generator<string> {
  yield (bom ? CSV_BOM : '') + columns.map((c) => quoted(c.name)).join(',') + '\r\n';
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
