import { eachLineInZipMember, safeEntryName } from '../../upstream/zip-lines.ts';

export { safeEntryName };

/** The point table inside the ZIP: `csv/Unfallorte2023_LinRef.csv` (2018: `.txt`). */
const MEMBER = /(^|\/)Unfallorte\d{4}_LinRef\.(csv|txt)$/i;

/**
 * Streams the lines of the point table of an Unfallatlas ZIP held in memory into `onLine`. Older
 * files are Windows-1252; only the header holds letters, so a wrong guess cannot shift values.
 */
export function eachLineInZip(body: Buffer, maxBytes: number, onLine: (line: string) => void): Promise<string> {
  return eachLineInZipMember(body, { member: MEMBER, label: 'Unfallatlas', missing: 'no Unfallorte…_LinRef member', maxBytes }, onLine);
}
