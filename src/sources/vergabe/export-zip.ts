import yauzl from 'yauzl';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { TenderRecord } from '../../core/records/tenders.ts';
import { releasesOf, tenderOf } from './ocds.ts';

/** A member name that could not escape a directory if it were ever unpacked (it never is). */
export function safeMemberName(name: string): boolean {
  return !name.startsWith('/') && !name.includes('\\') && !name.split('/').includes('..') && !/^[A-Za-z]:/.test(name);
}

export const MAX_MEMBER_BYTES = 16 * 1024 * 1024;
export const MAX_MEMBERS = 50_000;

/**
 * The tenders of one day's OCDS export (one JSON file per notice), read from the ZIP in memory
 * member by member: nothing is unpacked to disk. An unreadable member fails the whole day, so a
 * broken download never replaces a good day.
 */
export function tendersInExport(body: Buffer): Promise<TenderRecord[]> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (msg: string) => {
      if (settled) return;
      settled = true;
      reject(new UpstreamError('parse', `OCDS export: ${msg}`));
    };
    const out: TenderRecord[] = [];
    let members = 0;
    yauzl.fromBuffer(body, { lazyEntries: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return fail(err?.message ?? 'unreadable');
      zip.on('entry', (entry: yauzl.Entry) => {
        if (settled) return;
        if (!safeMemberName(entry.fileName)) {
          zip.close();
          return fail(`unsafe member name ${JSON.stringify(entry.fileName.slice(0, 80))}`);
        }
        if (!/\.json$/i.test(entry.fileName)) return zip.readEntry();
        if (++members > MAX_MEMBERS) {
          zip.close();
          return fail(`more than ${MAX_MEMBERS} members`);
        }
        if (entry.uncompressedSize > MAX_MEMBER_BYTES) {
          zip.close();
          return fail(`member of ${entry.uncompressedSize} bytes exceeds ${MAX_MEMBER_BYTES}`);
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(e?.message ?? 'unreadable member');
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', (se) => fail(se.message));
          stream.on('end', () => {
            let json: unknown;
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              zip.close();
              return fail(`member ${entry.fileName.slice(0, 80)} is not JSON`);
            }
            for (const r of releasesOf(json)) {
              const t = tenderOf(r);
              if (t) out.push(t);
            }
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => {
        if (settled) return;
        settled = true;
        resolve(out);
      });
      zip.on('error', (ze: Error) => fail(ze.message));
      zip.readEntry();
    });
  });
}
