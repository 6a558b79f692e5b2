import yauzl from 'yauzl';
import { UpstreamError } from '../../core/upstream-error.ts';

/** The members of a ZIP held in memory whose path matches `wanted`, by base name. */
export function zipMembers(body: Buffer, wanted: RegExp, maxBytes: number): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const fail = (msg: string) => reject(new UpstreamError('parse', `VG250 archive: ${msg}`));
    const out = new Map<string, Buffer>();
    yauzl.fromBuffer(body, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return fail(err?.message ?? 'unreadable');
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!wanted.test(entry.fileName)) {
          zip.readEntry();
          return;
        }
        if (entry.uncompressedSize > maxBytes) {
          zip.close();
          fail(`member of ${entry.uncompressedSize} bytes exceeds ${maxBytes}`);
          return;
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(e?.message ?? 'unreadable member');
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', (se) => fail(se.message));
          stream.on('end', () => {
            out.set(entry.fileName.split('/').pop()!, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', (ze: Error) => fail(ze.message));
      zip.readEntry();
    });
  });
}
