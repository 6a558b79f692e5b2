import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { UpstreamError } from '../core/upstream-error.ts';
import { delimitedRowStream, type DelimitedOptions } from '../core/delimited.ts';
import { Inflate64 } from './inflate64.ts';

/**
 * The one ZIP reader: every archive a source downloads (GTFS, VG250, GENESIS tables, Unfallatlas,
 * INKAR, OCDS exports, XLSX workbooks) is read from memory here, never unpacked to disk. The
 * central directory is read once and every member name checked before anything is inflated;
 * members are then read in any order, as streams or whole, each under a size cap. Stored and
 * deflate members are inflated by yauzl (zlib), Deflate64 members (method 9, written by Windows'
 * ZIP tool and the INKAR download) by upstream/inflate64.ts. Every member's size and CRC-32 are
 * checked against the central directory as it streams: a broken download never reads as data.
 */

export interface ZipMember {
  /** The path inside the archive, e.g. `csv/Unfallorte2023_LinRef.csv`. */
  readonly name: string;
  /** The path's last segment. */
  readonly baseName: string;
  /** Uncompressed size as the central directory declares it. */
  readonly size: number;
}

export interface ZipLimits {
  /** Starts every error message, e.g. "VG250 archive" or "XLSX workbook". */
  label: string;
  /** Most members the central directory may list. */
  maxMembers: number;
}

const DEFLATE64 = 9;
/** Compression methods the reader inflates: stored, deflate, Deflate64. */
const READABLE_METHODS = new Set([0, 8, DEFLATE64]);

/** A member name that could not escape a directory if it were ever unpacked (it never is). */
export function safeMemberName(name: string): boolean {
  return name.length > 0 && !name.startsWith('/') && !name.includes('\\') && !name.split('/').includes('..') && !/^[A-Za-z]:/.test(name);
}

export class ZipArchive {
  private readonly zip: yauzl.ZipFile;
  private readonly entries: Map<ZipMember, yauzl.Entry>;
  private readonly label: string;
  private constructor(zip: yauzl.ZipFile, entries: Map<ZipMember, yauzl.Entry>, label: string) {
    this.zip = zip;
    this.entries = entries;
    this.label = label;
  }

  /** Reads the central directory of a ZIP held in memory; fails on an unreadable archive, an unsafe or repeated name, or too many members. */
  static async open(body: Buffer, limits: ZipLimits): Promise<ZipArchive> {
    const fail = (msg: string) => new UpstreamError('parse', `${limits.label}: ${msg}`);
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(body, { lazyEntries: true, validateEntrySizes: true, autoClose: false }, (err, z) =>
        err || !z ? reject(fail(`not a ZIP archive (${err?.message ?? 'unreadable'})`)) : resolve(z),
      ),
    );
    const entries = new Map<ZipMember, yauzl.Entry>();
    const names = new Set<string>();
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('entry', (entry: yauzl.Entry) => {
          const name = entry.fileName;
          if (!safeMemberName(name)) return reject(fail(`unsafe member name ${JSON.stringify(name.slice(0, 80))}`));
          if (names.has(name)) return reject(fail(`member ${JSON.stringify(name.slice(0, 80))} appears twice`));
          if (names.size >= limits.maxMembers) return reject(fail(`more than ${limits.maxMembers} members`));
          names.add(name);
          if (!name.endsWith('/')) entries.set({ name, baseName: name.split('/').pop()!, size: entry.uncompressedSize }, entry);
          zip.readEntry();
        });
        zip.on('end', resolve);
        zip.on('error', (e: Error) => reject(fail(e.message)));
        zip.readEntry();
      });
    } catch (err) {
      zip.close();
      throw err;
    }
    return new ZipArchive(zip, entries, limits.label);
  }

  /** Members in central-directory order (folders left out). */
  get members(): ZipMember[] {
    return [...this.entries.keys()];
  }

  /** The first member whose path matches. */
  find(name: RegExp): ZipMember | undefined {
    return this.members.find((m) => name.test(m.name));
  }

  /** A member's bytes as they inflate; the stream fails (an UpstreamError) when the member is larger than `maxBytes` or does not match its size and CRC-32. */
  async stream(member: ZipMember, maxBytes: number): Promise<Readable> {
    const entry = this.entries.get(member);
    if (!entry) throw this.fail(`no member ${member.name}`);
    if (member.size > maxBytes) throw this.fail(`member ${member.name.slice(0, 80)} of ${member.size} bytes exceeds ${maxBytes}`);
    if (!READABLE_METHODS.has(entry.compressionMethod)) throw this.fail(`member compressed with method ${entry.compressionMethod}, which cannot be read`);
    const deflate64 = entry.compressionMethod === DEFLATE64;
    // yauzl hands Deflate64 members over compressed (it only knows deflate).
    const raw = await new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(entry, deflate64 ? { decodeFileData: false } : {}, (err, s) =>
        err || !s ? reject(this.fail(err?.message ?? 'unreadable member')) : resolve(s),
      ),
    );
    const checked = new MemberCheck(entry, (msg) => this.fail(msg));
    const stages: Readable[] = deflate64 ? [raw, new Inflate64()] : [raw];
    let last: Readable = stages[0]!;
    for (const next of [...stages.slice(1), checked]) {
      last.on('error', (e: Error) => checked.destroy(e instanceof UpstreamError ? e : this.fail(e.message)));
      last = last.pipe(next as Transform);
    }
    checked.on('close', () => raw.destroy());
    return checked;
  }

  /** A member's bytes, whole. */
  async bytes(member: ZipMember, maxBytes: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(member, maxBytes)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  close() {
    this.zip.close();
  }

  private fail(msg: string): UpstreamError {
    return new UpstreamError('parse', `${this.label}: ${msg}`);
  }
}

/** Opens an archive, hands it to `use` and closes it whatever happens. */
export async function withZip<T>(body: Buffer, limits: ZipLimits, use: (zip: ZipArchive) => Promise<T>): Promise<T> {
  const zip = await ZipArchive.open(body, limits);
  try {
    return await use(zip);
  } finally {
    zip.close();
  }
}

/** Counts a member's inflated bytes and their CRC-32 against what the central directory declares. */
class MemberCheck extends Transform {
  private size = 0;
  private crc = 0;
  private readonly entry: yauzl.Entry;
  private readonly fail: (msg: string) => UpstreamError;
  constructor(entry: yauzl.Entry, fail: (msg: string) => UpstreamError) {
    super();
    this.entry = entry;
    this.fail = fail;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.entry.uncompressedSize) return cb(this.fail('member inflates beyond its declared size'));
    this.crc = crc32(chunk, this.crc);
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback) {
    if (this.size !== this.entry.uncompressedSize || this.crc !== this.entry.crc32) return cb(this.fail('member does not match its declared size and CRC-32'));
    cb();
  }
}

/** A data download holds a table and a few notes; thousands of members mean something else. */
const MAX_MEMBERS_OF_DATA_ARCHIVE = 1000;

export interface DelimitedMemberSpec extends Pick<DelimitedOptions, 'delimiter' | 'trim'> {
  /** The member whose rows are read; the first match wins. */
  member: RegExp;
  /** Starts every error message, e.g. "INKAR archive". */
  label: string;
  /** What the message says when no member matches. */
  missing: string;
  /** Largest uncompressed member accepted. */
  maxBytes: number;
}

/**
 * Streams the rows of one `;`-delimited member of a ZIP held in memory into `onRow` (see
 * core/delimited.ts: UTF-8 or Windows-1252, quoted fields). An exception thrown by `onRow` fails
 * the whole read. Resolves with the member's path.
 */
export function eachRowOfZipMember(body: Buffer, spec: DelimitedMemberSpec, onRow: (cells: string[]) => void): Promise<string> {
  return withZip(body, { label: spec.label, maxMembers: MAX_MEMBERS_OF_DATA_ARCHIVE }, async (zip) => {
    const member = zip.find(spec.member);
    if (!member) throw new UpstreamError('parse', `${spec.label}: ${spec.missing}`);
    for await (const row of delimitedRowStream(await zip.stream(member, spec.maxBytes), { ...spec, label: `${spec.label}: ${member.name}` })) onRow(row);
    return member.name;
  });
}
