import { UpstreamError } from '../../core/upstream-error.ts';

/** A polygon record of an ESRI shapefile: its rings as [x, y] point lists (parts). */
export type Ring = [number, number][];

const POLYGON = 5;
const POLYGON_Z = 15;
const POLYGON_M = 25;
const NULL_SHAPE = 0;

/**
 * The polygons of a `.shp` file (ESRI Shapefile Technical Description, 1998): a 100-byte
 * header, then records of a big-endian header (number, length in 16-bit words) and a
 * little-endian shape. Records come in the order of the `.dbf` rows; null shapes give null.
 */
export function readPolygons(shp: Buffer): (Ring[] | null)[] {
  if (shp.length < 100 || shp.readInt32BE(0) !== 9994) throw new UpstreamError('parse', 'not a shapefile (.shp header)');
  const out: (Ring[] | null)[] = [];
  let at = 100;
  while (at + 8 <= shp.length) {
    const words = shp.readInt32BE(at + 4);
    const start = at + 8;
    const end = start + words * 2;
    if (end > shp.length) throw new UpstreamError('parse', 'shapefile record runs past the end of the file');
    const type = shp.readInt32LE(start);
    if (type === NULL_SHAPE) out.push(null);
    else if (type === POLYGON || type === POLYGON_Z || type === POLYGON_M) out.push(polygon(shp, start));
    else throw new UpstreamError('parse', `shapefile record of type ${type}, expected polygons`);
    at = end;
  }
  return out;
}

function polygon(buf: Buffer, start: number): Ring[] {
  const numParts = buf.readInt32LE(start + 36);
  const numPoints = buf.readInt32LE(start + 40);
  const partsAt = start + 44;
  const pointsAt = partsAt + numParts * 4;
  const parts: number[] = [];
  for (let i = 0; i < numParts; i++) parts.push(buf.readInt32LE(partsAt + i * 4));
  parts.push(numPoints);
  const rings: Ring[] = [];
  for (let p = 0; p < numParts; p++) {
    const ring: Ring = [];
    // parts holds numParts + 1 entries (the end sentinel pushed above), so both reads are in range.
    const from = parts[p] ?? numPoints;
    const to = parts[p + 1] ?? numPoints;
    for (let i = from; i < to; i++) ring.push([buf.readDoubleLE(pointsAt + i * 16), buf.readDoubleLE(pointsAt + i * 16 + 8)]);
    rings.push(ring);
  }
  return rings;
}

/**
 * The rows of a dBASE III table (`.dbf`): header with record count, header and record length,
 * 32-byte field descriptors up to 0x0D, then fixed-width rows (first byte `*` = deleted).
 * Values are trimmed text; `encoding` comes from the `.cpg` file next to it.
 */
export function readDbf(dbf: Buffer, encoding: BufferEncoding | 'latin1' = 'latin1'): Record<string, string>[] {
  if (dbf.length < 33) throw new UpstreamError('parse', 'not a dBASE table');
  const count = dbf.readUInt32LE(4);
  const headerLength = dbf.readUInt16LE(8);
  const recordLength = dbf.readUInt16LE(10);
  const fields: { name: string; offset: number; length: number }[] = [];
  let offset = 1;
  for (let at = 32; at + 32 <= headerLength && dbf[at] !== 0x0d; at += 32) {
    const name = dbf.toString('latin1', at, at + 11).replace(/\0.*$/s, '');
    const length = dbf[at + 16] ?? 0;
    fields.push({ name, offset, length });
    offset += length;
  }
  if (headerLength + count * recordLength > dbf.length) throw new UpstreamError('parse', 'dBASE table shorter than its header says');
  const rows: Record<string, string>[] = [];
  for (let r = 0; r < count; r++) {
    const at = headerLength + r * recordLength;
    const row: Record<string, string> = {};
    if (dbf[at] === 0x2a) row._deleted = 'true';
    for (const f of fields) row[f.name] = dbf.toString(encoding, at + f.offset, at + f.offset + f.length).trim();
    rows.push(row);
  }
  return rows;
}

/** The encoding a `.cpg` file names (UTF-8, else the dBASE default Latin-1). */
export function cpgEncoding(cpg: string | null): BufferEncoding | 'latin1' {
  return cpg && /utf-?8/i.test(cpg) ? 'utf8' : 'latin1';
}
