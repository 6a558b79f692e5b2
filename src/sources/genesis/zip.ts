import yauzl from 'yauzl';
import { UpstreamError } from '../../core/upstream-error.ts';

export function isZip(body: Buffer): boolean {
  return body.length >= 4 && body.readUInt32LE(0) === 0x04034b50;
}

/**
 * The first `.csv` member of a ZIP held in memory. GENESIS writes its archives with data
 * descriptors (sizes after the data), so the central directory is read, not the local headers.
 */
export function firstCsvInZip(body: Buffer, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const fail = (msg: string) => reject(new UpstreamError('parse', `GENESIS archive: ${msg}`));
    yauzl.fromBuffer(body, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return fail(err?.message ?? 'unreadable');
      let found = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!/\.csv$/i.test(entry.fileName)) {
          zip.readEntry();
          return;
        }
        found = true;
        if (entry.uncompressedSize > maxBytes) {
          zip.close();
          fail(`member of ${entry.uncompressedSize} bytes exceeds ${maxBytes}`);
          return;
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(e?.message ?? 'unreadable member');
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBytes) {
              stream.destroy();
              fail(`member exceeds ${maxBytes} bytes`);
              return;
            }
            chunks.push(c);
          });
          stream.on('error', (se) => fail(se.message));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks));
          });
        });
      });
      zip.on('end', () => {
        if (!found) fail('no CSV member');
      });
      zip.on('error', (ze: Error) => fail(ze.message));
      zip.readEntry();
    });
  });
}
