import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { parse } from 'csv-parse';
import { parse as parseAll, type Options } from 'csv-parse/sync';
import { UpstreamError } from './upstream-error.ts';

/**
 * Delimited text as German official statistics and open-data portals publish it: `;` (or `,`)
 * separated, optional double quotes (a quoted field may hold the separator and line breaks), a
 * byte-order mark or not, decimal comma, placeholder symbols for missing values. Every such file
 * is read with csv-parse through this module. Columns are always found by header name, because
 * column sets and order change between releases; files often have a preamble before the header.
 */

export interface DelimitedOptions {
  /** Names the file in error messages, e.g. "kerg2.csv". */
  label: string;
  /** Field separator; `;` unless said otherwise. */
  delimiter?: string;
  /** Blanks around fields dropped (true unless said otherwise). */
  trim?: boolean;
}

function csvOptions(o: DelimitedOptions): Options {
  // Rows of a preamble have other lengths than the table; a stray quote inside a field is taken literally.
  return { delimiter: o.delimiter ?? ';', bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: o.trim ?? true };
}

const unreadable = (o: DelimitedOptions, err: unknown) =>
  new UpstreamError('parse', `${o.label} unreadable: ${err instanceof Error ? err.message : String(err)}`);

/** Every row of delimited text. */
export function delimitedRows(text: string, o: DelimitedOptions): string[][] {
  try {
    return parseAll(text, csvOptions(o)) as string[][];
  } catch (err) {
    throw unreadable(o, err);
  }
}

/** Rows as they stream from bytes (UTF-8, or Windows-1252 from the first piece that is not UTF-8), e.g. a ZIP member. */
export async function* delimitedRowStream(bytes: Readable, o: DelimitedOptions): AsyncGenerator<string[]> {
  const parser = parse(csvOptions(o));
  const text = new Utf8OrWindows1252();
  bytes.on('error', (err) => parser.destroy(err));
  text.on('error', (err) => parser.destroy(err));
  bytes.pipe(text).pipe(parser);
  try {
    for await (const row of parser) yield row as string[];
  } catch (err) {
    throw err instanceof UpstreamError ? err : unreadable(o, err);
  } finally {
    bytes.destroy();
  }
}

/** Rows as objects keyed by the first row (the header), so a reordered or extended edition still reads; a `required` column missing fails. */
export function delimitedObjects(text: string, o: DelimitedOptions & { required: readonly string[] }): Record<string, string>[] {
  const [first, ...rows] = delimitedRows(text, o);
  const header = (first ?? []).map((h) => h.trim());
  const missing = o.required.filter((c) => !header.includes(c));
  if (missing.length > 0) throw new UpstreamError('parse', `${o.label} without the column(s) ${missing.join(', ')}`);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

/** Column positions by header name; the header row is the first row whose cells include all `required`. */
export function findHeader(rows: string[][], required: readonly string[]): { at: number; col: Map<string, number> } | null {
  for (const [i, cells] of rows.entries()) {
    if (required.every((r) => cells.includes(r))) return { at: i, col: new Map(cells.map((c, j) => [c, j])) };
  }
  return null;
}

/** Text that is UTF-8 unless it is not valid UTF-8; then Windows-1252, as older German files are. */
export function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** `decodeText` for a stream: UTF-8 until a piece is not, Windows-1252 from that piece on; re-encoded as UTF-8 for the parser. */
class Utf8OrWindows1252 extends Transform {
  private utf8: InstanceType<typeof TextDecoder> | null = new TextDecoder('utf-8', { fatal: true });
  private readonly latin = new TextDecoder('windows-1252');

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
    if (this.utf8) {
      try {
        return cb(null, Buffer.from(this.utf8.decode(chunk, { stream: true })));
      } catch {
        this.utf8 = null;
      }
    }
    cb(null, Buffer.from(this.latin.decode(chunk, { stream: true })));
  }

  override _flush(cb: TransformCallback) {
    try {
      cb(null, Buffer.from((this.utf8 ?? this.latin).decode()));
    } catch (err) {
      cb(err as Error);
    }
  }
}
