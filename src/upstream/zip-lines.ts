import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { UpstreamError } from '../core/upstream-error.ts';
import { Inflate64 } from './inflate64.ts';

/** A member name that could not escape a directory if it were ever unpacked (it never is). */
export function safeEntryName(name: string): boolean {
  return !name.startsWith('/') && !name.includes('\\') && !name.split('/').includes('..') && !/^[A-Za-z]:/.test(name);
}

const DEFLATE64 = 9;

export interface ZipMemberSpec {
  /** The member whose lines are read; the first match wins, other members are skipped. */
  member: RegExp;
  /** Names the archive in error messages, e.g. "Unfallatlas". */
  label: string;
  /** What the message says when no member matches. */
  missing: string;
  /** Largest uncompressed member accepted. */
  maxBytes: number;
}

/** Compression methods the reader can inflate: stored, deflate (yauzl, zlib) and Deflate64 (upstream/inflate64.ts). */
const READABLE_METHODS = new Set([0, 8, DEFLATE64]);

/**
 * Streams the lines of one member of a ZIP held in memory into `onLine`, never writing to disk.
 * Every member name is checked before anything is read. The member is decoded as UTF-8 unless it
 * is not valid UTF-8 (then Windows-1252). An exception thrown by `onLine` fails the whole read.
 * Resolves with the member's name.
 */
export function eachLineInZipMember(body: Buffer, spec: ZipMemberSpec, onLine: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (msg: string) => {
      if (settled) return;
      settled = true;
      reject(new UpstreamError('parse', `${spec.label} archive: ${msg}`));
    };
    yauzl.fromBuffer(body, { lazyEntries: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return fail(err?.message ?? 'unreadable');
      let found = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!safeEntryName(entry.fileName)) {
          zip.close();
          fail(`unsafe member name ${JSON.stringify(entry.fileName.slice(0, 80))}`);
          return;
        }
        if (!spec.member.test(entry.fileName)) {
          zip.readEntry();
          return;
        }
        found = true;
        if (entry.uncompressedSize > spec.maxBytes) {
          zip.close();
          fail(`member of ${entry.uncompressedSize} bytes exceeds ${spec.maxBytes}`);
          return;
        }
        if (!READABLE_METHODS.has(entry.compressionMethod)) {
          zip.close();
          fail(`member compressed with method ${entry.compressionMethod}, which cannot be read`);
          return;
        }
        const deflate64 = entry.compressionMethod === DEFLATE64;
        // yauzl hands Deflate64 members over compressed; the size and CRC checks it makes for deflate are then made here.
        zip.openReadStream(entry, deflate64 ? { decodeFileData: false } : {}, (e, raw) => {
          if (e || !raw) return fail(e?.message ?? 'unreadable member');
          const stream: Readable = deflate64 ? raw.pipe(new Inflate64()) : raw;
          if (deflate64) raw.on('error', (re: Error) => stream.destroy(re));
          let size = 0;
          let crc = 0;
          const decoder = new TextDecoder('utf-8', { fatal: true });
          const latin = new TextDecoder('windows-1252');
          let useLatin = false;
          let rest = '';
          const feed = (text: string) => {
            const parts = (rest + text).split('\n');
            rest = parts.pop() ?? '';
            for (const p of parts) onLine(p);
          };
          stream.on('data', (chunk: Buffer) => {
            if (settled) return;
            if (deflate64) {
              size += chunk.length;
              crc = crc32(chunk, crc);
              if (size > entry.uncompressedSize) {
                stream.destroy();
                zip.close();
                fail('member inflates beyond its declared size');
                return;
              }
            }
            try {
              if (!useLatin) {
                try {
                  feed(decoder.decode(chunk, { stream: true }));
                  return;
                } catch {
                  useLatin = true;
                }
              }
              feed(latin.decode(chunk, { stream: true }));
            } catch (le) {
              stream.destroy();
              zip.close();
              fail(le instanceof UpstreamError ? le.message : String(le));
            }
          });
          stream.on('error', (se) => fail(se.message));
          stream.on('end', () => {
            if (settled) return;
            if (deflate64 && (size !== entry.uncompressedSize || crc !== entry.crc32)) {
              zip.close();
              fail('Deflate64 member does not match its declared size and CRC-32');
              return;
            }
            try {
              if (rest) onLine(rest);
            } catch (le) {
              fail(le instanceof UpstreamError ? le.message : String(le));
              return;
            }
            zip.close();
            settled = true;
            resolve(entry.fileName);
          });
        });
      });
      zip.on('end', () => {
        if (!found) fail(spec.missing);
      });
      zip.on('error', (ze: Error) => fail(ze.message));
      zip.readEntry();
    });
  });
}
