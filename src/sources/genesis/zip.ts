import { UpstreamError } from '../../core/upstream-error.ts';
import { withZip } from '../../upstream/zip-archive.ts';

export function isZip(body: Buffer): boolean {
  return body.length >= 4 && body.readUInt32LE(0) === 0x04034b50;
}

/**
 * The first `.csv` member of a ZIP held in memory. GENESIS writes its archives with data
 * descriptors (sizes after the data), which the central directory the reader goes by covers.
 */
export function firstCsvInZip(body: Buffer, maxBytes: number): Promise<Buffer> {
  return withZip(body, { label: 'GENESIS archive', maxMembers: 100 }, async (zip) => {
    const csv = zip.find(/\.csv$/i);
    if (!csv) throw new UpstreamError('parse', 'GENESIS archive: no CSV member');
    return zip.bytes(csv, maxBytes);
  });
}
