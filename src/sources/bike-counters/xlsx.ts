import { posix } from 'node:path';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { UpstreamError } from '../../core/upstream-error.ts';
import { ZipArchive, type ZipMember } from '../../upstream/zip-archive.ts';

/**
 * A small streaming reader of XLSX workbooks (Office Open XML SpreadsheetML) held in memory: the
 * ZIP's central directory is read once, then only the parts asked for are inflated and parsed
 * with saxes as they stream, row by row, so a sheet never becomes a DOM. Reads cell values only
 * (no styles, no formulas): shared strings (`t="s"`), inline strings, formula string results,
 * booleans and numbers; Excel dates stay serial numbers (the caller knows which columns are dates).
 * DOCTYPE/ENTITY declarations, unsafe or repeated member names and parts above the size caps are refused.
 */
export type Cell = string | number | boolean | null;

export interface XlsxLimits {
  /** Largest uncompressed part (a year sheet of the Berlin workbook is some 10 MB). */
  maxPartBytes: number;
  maxEntries: number;
  maxSharedStrings: number;
}

export const DEFAULT_XLSX_LIMITS: XlsxLimits = { maxPartBytes: 256 * 1024 * 1024, maxEntries: 2000, maxSharedStrings: 1_000_000 };

export interface Workbook {
  /** Sheet names in workbook order. */
  readonly sheets: string[];
  /** True when the workbook counts dates from 1904 (`workbookPr date1904`). */
  readonly date1904: boolean;
  /** Streams the rows of a sheet; `cells[i]` is column i (A = 0), missing cells are undefined. */
  eachRow(sheet: string, onRow: (cells: Cell[], row: number) => void): Promise<void>;
  close(): void;
}

const fail = (msg: string) => new UpstreamError('parse', `XLSX workbook: ${msg}`);
const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Column index of a cell reference (`AB12` -> 27). */
function columnOf(ref: string): number | null {
  const m = /^([A-Z]{1,3})\d+$/.exec(ref);
  if (!m) return null;
  let n = 0;
  for (const ch of m[1]!) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

interface XmlHandlers {
  open?: (name: string, attrs: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (t: string) => void;
}

/** Inflates one part and feeds it to saxes as it streams; handler errors end the read. */
async function parsePart(zip: ZipArchive, member: ZipMember, limits: XlsxLimits, h: XmlHandlers): Promise<void> {
  const part = member.name;
  const stream = await zip.stream(member, limits.maxPartBytes);
  return new Promise((resolve, reject) => {
    const parser = new SaxesParser({ xmlns: false });
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let failure: Error | null = null;
    const stop = (e: unknown) => {
      if (failure) return;
      failure = e instanceof UpstreamError ? e : fail(`${part}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      stream.destroy();
      reject(failure);
    };
    parser.on('doctype', () => stop(fail(`${part} with a DOCTYPE declaration refused`)));
    parser.on('error', (e) => stop(fail(`${part} not well-formed: ${e.message.split('\n')[0]}`)));
    parser.on('opentag', (tag: SaxesTagPlain) => h.open?.(local(tag.name), tag.attributes));
    parser.on('closetag', (tag: SaxesTagPlain) => h.close?.(local(tag.name)));
    parser.on('text', (t: string) => h.text?.(t));
    parser.on('cdata', (t: string) => h.text?.(t));
    stream.on('data', (chunk: Buffer) => {
      if (failure) return;
      try {
        const text = decoder.decode(chunk, { stream: true });
        if (/<!ENTITY/i.test(text)) return stop(fail(`${part} with an ENTITY declaration refused`));
        parser.write(text);
      } catch (e) {
        stop(e);
      }
    });
    stream.on('error', (e) => stop(e));
    stream.on('end', () => {
      if (failure) return;
      try {
        parser.write(decoder.decode());
        parser.close();
      } catch (e) {
        return stop(e);
      }
      if (!failure) resolve();
    });
  });
}

/** Text of `<t>` elements inside `container` (shared strings, inline strings), phonetic runs (`rPh`) left out. */
function textCollector(container: string, onDone: (text: string) => void): XmlHandlers {
  let inside = false;
  let inT = false;
  let phonetic = 0;
  let buf = '';
  return {
    open: (name) => {
      if (name === container) [inside, buf] = [true, ''];
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && inside && phonetic === 0) inT = true;
    },
    close: (name) => {
      if (name === 't') inT = false;
      else if (name === 'rPh') phonetic--;
      else if (name === container && inside) {
        inside = false;
        onDone(buf);
      }
    },
    text: (t) => {
      if (inT) buf += t;
    },
  };
}

/** Resolves a relationship target against the workbook part's folder (`xl/`). */
function resolveTarget(target: string): string {
  return target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join('xl', target));
}

export async function openWorkbook(body: Buffer, limits: XlsxLimits = DEFAULT_XLSX_LIMITS): Promise<Workbook> {
  const zip = await ZipArchive.open(body, { label: 'XLSX workbook', maxMembers: limits.maxEntries });
  try {
    const entries = new Map(zip.members.map((m) => [m.name, m]));
    const entry = (name: string) => {
      const e = entries.get(name);
      if (!e) throw fail(`part ${name} missing`);
      return e;
    };

    const declared: { name: string; rid: string }[] = [];
    let date1904 = false;
    await parsePart(zip, entry('xl/workbook.xml'), limits, {
      open: (name, a) => {
        if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
        if (name !== 'sheet') return;
        const rid = Object.entries(a).find(([k]) => k !== 'id' && local(k) === 'id')?.[1];
        if (a.name && rid) declared.push({ name: a.name, rid });
      },
    });
    const rels = new Map<string, { target: string; type: string }>();
    await parsePart(zip, entry('xl/_rels/workbook.xml.rels'), limits, {
      open: (name, a) => {
        if (name === 'Relationship' && a.Id && a.Target && a.TargetMode !== 'External') rels.set(a.Id, { target: resolveTarget(a.Target), type: a.Type ?? '' });
      },
    });
    const parts = new Map<string, string>();
    for (const s of declared) {
      const rel = rels.get(s.rid);
      if (rel) parts.set(s.name, rel.target);
    }

    const strings: string[] = [];
    const sstPath = [...rels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target ?? 'xl/sharedStrings.xml';
    if (entries.has(sstPath))
      await parsePart(
        zip,
        entry(sstPath),
        limits,
        textCollector('si', (t) => {
          if (strings.length >= limits.maxSharedStrings) throw fail(`more than ${limits.maxSharedStrings} shared strings`);
          strings.push(t);
        }),
      );

    return {
      sheets: declared.map((s) => s.name),
      date1904,
      close: () => zip.close(),
      eachRow: (sheet, onRow) => {
        const path = parts.get(sheet);
        if (!path) return Promise.reject(fail(`sheet ${JSON.stringify(sheet.slice(0, 80))} missing`));
        let e: ZipMember;
        try {
          e = entry(path);
        } catch (err) {
          return Promise.reject(err);
        }
        return parsePart(zip, e, limits, sheetHandlers(strings, onRow));
      },
    };
  } catch (err) {
    zip.close();
    throw err;
  }
}

/** Rows of `<sheetData>`: `<row r><c r t><v>…</v> | <is><t>…</t></is></c></row>`; `r` may be left out (then cells follow on). */
function sheetHandlers(strings: string[], onRow: (cells: Cell[], row: number) => void): XmlHandlers {
  let row = 0;
  let cells: Cell[] = [];
  let col = -1;
  let type = 'n';
  let inV = false;
  let v = '';
  let inline = '';
  const inlineText = textCollector('is', (t) => (inline = t));
  return {
    open: (name, a) => {
      if (name === 'row') {
        row = a.r ? Number(a.r) : row + 1;
        [cells, col] = [[], -1];
      } else if (name === 'c') {
        col = (a.r ? columnOf(a.r) : null) ?? col + 1;
        [type, v, inline] = [a.t ?? 'n', '', ''];
      } else if (name === 'v') inV = true;
      inlineText.open!(name, a);
    },
    text: (t) => {
      if (inV) v += t;
      inlineText.text!(t);
    },
    close: (name) => {
      inlineText.close!(name);
      if (name === 'v') inV = false;
      else if (name === 'c') cells[col] = cellValue(type, v, inline, strings);
      else if (name === 'row') onRow(cells, row);
    },
  };
}

function cellValue(type: string, v: string, inline: string, strings: string[]): Cell {
  switch (type) {
    case 's': {
      const s = strings[Number(v)];
      if (v === '' || s === undefined) throw fail(`shared string ${v.slice(0, 12)} missing`);
      return s;
    }
    case 'inlineStr':
      return inline;
    case 'str':
    case 'd':
      return v;
    case 'b':
      return v === '1' || v === 'true';
    case 'e':
      return null;
    default: {
      if (v.trim() === '') return null;
      const n = Number(v);
      return Number.isFinite(n) ? n : null;
    }
  }
}
