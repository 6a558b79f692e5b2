import yauzl from 'yauzl';
import { UpstreamError } from '../../core/upstream-error.ts';

/** The point table inside the ZIP: `csv/Unfallorte2023_LinRef.csv` (2018: `.txt`). */
const MEMBER = /(^|\/)Unfallorte\d{4}_LinRef\.(csv|txt)$/i;

/** A member name that could not escape a directory if it were ever unpacked (it never is). */
export function safeEntryName(name: string): boolean {
  return !name.startsWith('/') && !name.includes('\\') && !name.split('/').includes('..') && !/^[A-Za-z]:/.test(name);
}

/**
 * Streams the lines of the point table of an Unfallatlas ZIP held in memory into `onLine`,
 * never writing to disk. The member is decoded as UTF-8 unless it is not valid UTF-8 (older
 * files are Windows-1252); only the header holds letters, so a wrong guess cannot shift values.
 */
export function eachLineInZip(body: Buffer, maxBytes: number, onLine: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (msg: string) => {
      if (settled) return;
      settled = true;
      reject(new UpstreamError('parse', `Unfallatlas archive: ${msg}`));
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
        if (!MEMBER.test(entry.fileName)) {
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
        if (!found) fail('no Unfallorte…_LinRef member');
      });
      zip.on('error', (ze: Error) => fail(ze.message));
      zip.readEntry();
    });
  });
}
