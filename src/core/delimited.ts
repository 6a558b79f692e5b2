/**
 * Delimited text as German official statistics publish it: `;` separated, optional double
 * quotes, decimal comma, placeholder symbols for missing values. Columns are always found by
 * header name, because column sets and order change between releases.
 */

/** One line split at `sep`, honouring double-quoted fields ("" is a literal quote). */
export function splitLine(line: string, sep = ';'): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((c) => c.trim());
}

/** Lines of a text body without a byte-order mark, CR or trailing empty lines. */
export function lines(body: string): string[] {
  const out = body.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Placeholders of German statistics for "nothing", "secret", "not available": all mean no value. */
const PLACEHOLDERS = new Set(['', '-', '.', 'x', 'X', '/', '…', '...', '–']);

/** A number in German notation (`1.234,5`) or null for a placeholder or garbage. */
export function germanNumber(raw: string | undefined): number | null {
  const s = (raw ?? '').trim();
  if (PLACEHOLDERS.has(s)) return null;
  const n = Number(s.replace(/\./g, '').replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

/** A number whose notation is plain digits with an optional decimal comma (no thousands separator). */
export function decimalComma(raw: string | undefined): number | null {
  const s = (raw ?? '').trim();
  if (PLACEHOLDERS.has(s)) return null;
  const n = Number(s.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

/** Column positions by header name; the header row is the first line whose cells include all `required`. */
export function findHeader(rows: string[], required: readonly string[], sep = ';'): { at: number; col: Map<string, number> } | null {
  for (const [i, row] of rows.entries()) {
    const cells = splitLine(row, sep);
    if (required.every((r) => cells.includes(r))) return { at: i, col: new Map(cells.map((c, j) => [c, j])) };
  }
  return null;
}
