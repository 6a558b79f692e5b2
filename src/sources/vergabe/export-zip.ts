import { UpstreamError } from '../../core/upstream-error.ts';
import type { TenderRecord } from '../../core/records/tenders.ts';
import { withZip } from '../../upstream/zip-archive.ts';
import { releasesOf, tenderOf } from './ocds.ts';

export const MAX_MEMBER_BYTES = 16 * 1024 * 1024;
export const MAX_MEMBERS = 50_000;

/**
 * The tenders of one day's OCDS export (one JSON file per notice), read from the ZIP in memory
 * member by member: nothing is unpacked to disk. An unreadable member fails the whole day, so a
 * broken download never replaces a good day.
 */
export function tendersInExport(body: Buffer): Promise<TenderRecord[]> {
  return withZip(body, { label: 'OCDS export', maxMembers: MAX_MEMBERS }, async (zip) => {
    const out: TenderRecord[] = [];
    for (const m of zip.members) {
      if (!/\.json$/i.test(m.name)) continue;
      let json: unknown;
      try {
        json = JSON.parse((await zip.bytes(m, MAX_MEMBER_BYTES)).toString('utf8'));
      } catch (err) {
        if (err instanceof UpstreamError) throw err;
        throw new UpstreamError('parse', `OCDS export: member ${m.name.slice(0, 80)} is not JSON`, undefined, undefined, { cause: err });
      }
      for (const r of releasesOf(json)) {
        const t = tenderOf(r);
        if (t) out.push(t);
      }
    }
    return out;
  });
}
