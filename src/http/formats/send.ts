import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Format } from '../../core/formats.ts';
import type { Table } from '../../core/table.ts';
import { etagOfParts, ifNoneMatchMatches } from '../conditional.ts';
import { CSV_TYPE, csvChunks, wantsBom } from './csv.ts';
import { GEOJSON_TYPE, geojsonChunks } from './geojson.ts';

/** An answer to send as CSV or GeoJSON: its rows, their table, and what the JSON envelope says around them. */
export interface TableAnswer {
  format: Exclude<Format, 'json'>;
  table: Table;
  rows: readonly unknown[];
  meta: Record<string, unknown>;
  /** The envelope's attribution (GeoJSON member `attribution`). */
  attribution: unknown;
  /** The licences to link (`Link: <url>; rel="license"`) and name in X-License / X-Attribution. */
  licences: readonly { source: string; text: string; license: string; license_url: string }[];
  /** Further GeoJSON foreign members (e.g. the record beside a list). */
  members?: Record<string, unknown>;
  /** The ETag of the JSON answer; each format's tag is derived from it, so they differ. */
  jsonEtag: string;
  /** File name without extension (Content-Disposition). */
  filename: string;
}

/** Above this many rows the body is streamed (chunk by chunk), below it sent as one string. */
const STREAM_ABOVE_ROWS = 2000;

/**
 * A stream that renders one chunk per turn of the event loop (setImmediate), so other requests are
 * served between the chunks of a long list. Readable.from would not: while the socket takes the
 * bytes at once (loopback, a fast client) it pulls chunk after chunk in one turn, through the
 * nextTick queue, and renders the whole file before any other request runs.
 */
export function chunkPerTurn(chunks: Iterator<string>): Readable {
  let pending = false;
  return new Readable({
    read() {
      if (pending) return;
      pending = true;
      setImmediate(() => {
        pending = false;
        if (this.destroyed) return;
        try {
          const next = chunks.next();
          this.push(next.done ? null : next.value);
        } catch (err) {
          this.destroy(err instanceof Error ? err : new Error(String(err)));
        }
      });
    },
  });
}

/**
 * The response headers that carry the envelope's meta beside a CSV (and a GeoJSON) body; values
 * outside printable ASCII are percent-encoded (UTF-8). Exposed to browsers by http/cors.ts.
 */
export const META_HEADERS = [
  'X-Source-Status',
  'X-As-Of',
  'X-Fetched-At',
  'X-Source',
  'X-License',
  'X-Attribution',
  'X-Note',
  'X-Demo',
  'X-Total-Count',
] as const;

/** Printable ASCII kept, everything else (and `%`) percent-encoded as UTF-8: decodeURIComponent reverses it. */
export function asciiSafe(s: string): string {
  return s.replace(/[^\x20-\x24\x26-\x7e]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%EF%BF%BD';
    }
  });
}

const str = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : null);

/** The X-… and Link headers of a table answer. */
export function metaHeaders(a: Pick<TableAnswer, 'meta' | 'licences'>): Record<string, string> {
  const h: Record<string, string> = {};
  const put = (name: string, v: unknown) => {
    const s = str(v);
    if (s !== null && s !== '') h[name] = asciiSafe(s);
  };
  put('x-source-status', a.meta.source_status);
  put('x-as-of', a.meta.as_of);
  put('x-fetched-at', a.meta.fetched_at);
  put('x-note', a.meta.note);
  if (a.meta.demo === true) h['x-demo'] = 'true';
  put('x-total-count', (a.meta.pagination as { total?: unknown } | undefined)?.total);
  const unique = <T>(xs: T[]) => [...new Set(xs)];
  put('x-source', unique(a.licences.map((l) => l.source)).join('; '));
  put('x-license', unique(a.licences.map((l) => l.license)).join('; '));
  put('x-attribution', unique(a.licences.map((l) => l.text)).join('; '));
  return h;
}

/** Appends `rel="license"` links to the Link header the pagination may have set. */
function addLicenceLinks(reply: FastifyReply, licences: TableAnswer['licences']) {
  // Printable ASCII without `"`, `<` and `>`: a target that could close the link early is left out.
  const urls = [...new Set(licences.map((l) => l.license_url).filter((u) => /^https?:\/\/[\x21\x23-\x3b\x3d\x3f-\x7e]+$/.test(u)))];
  if (!urls.length) return;
  const prev = reply.getHeader('link');
  const own = urls.map((u) => `<${u}>; rel="license"`).join(', ');
  reply.header('link', prev === undefined ? own : `${String(prev)}, ${own}`);
}

/** The ETag of a format's representation, derived from the JSON answer's (a CSV with a BOM is another representation). */
export function formatEtag(jsonEtag: string, format: Format, bom = false): string {
  if (format === 'json') return jsonEtag;
  return bom ? etagOfParts(jsonEtag, '\0', format, '\0bom') : etagOfParts(jsonEtag, '\0', format);
}

/**
 * 200 (or 304 when If-None-Match names the format's ETag) with the CSV or GeoJSON body; a long
 * list is streamed, so memory holds one chunk of text, not the whole file.
 */
export function sendTable(req: FastifyRequest, reply: FastifyReply, a: TableAnswer) {
  const csv = a.format === 'csv';
  const bom = csv && wantsBom(req.query);
  const etag = formatEtag(a.jsonEtag, a.format, bom);
  reply.header('etag', etag).headers(metaHeaders(a));
  addLicenceLinks(reply, a.licences);
  if (ifNoneMatchMatches(req.headers['if-none-match'], etag)) return reply.code(304).send();
  const chunks = csv ? csvChunks(a.table.columns, a.rows, bom) : geojsonChunks(a.table, a.rows, { meta: a.meta, attribution: a.attribution, ...a.members });
  reply.header('content-type', csv ? CSV_TYPE : GEOJSON_TYPE).header('content-disposition', `inline; filename="${a.filename}.${csv ? 'csv' : 'geojson'}"`);
  if (a.rows.length > STREAM_ABOVE_ROWS) return reply.send(chunkPerTurn(chunks));
  let body = '';
  for (const c of chunks) body += c;
  // Bytes, not a string: Fastify would add a charset parameter, which application/geo+json does not define.
  return reply.send(Buffer.from(body));
}
