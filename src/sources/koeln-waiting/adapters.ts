import type { Adapter } from '../../core/data-type.ts';
import type { OfficeWaitTimesRecord } from '../../core/records/places.ts';
import { STALE_AFTER_MS, parseWaitingFeed, type KoelnWaitingFeed } from './parse.ts';

/** The current waiting times of Köln's customer centres; a frozen feed is flagged, not passed off as current. */
export const koelnWaitTimes: Adapter<OfficeWaitTimesRecord> = async ({ http, now }) => {
  const data = parseWaitingFeed(await http.json<KoelnWaitingFeed>('/waiting-od.php'), now);
  if (data.offices.length === 0) return { data: null, status: 'no_data', meta: { reason: 'the feed lists no office' } };
  const meta = data.stale ? { note: `the feed has not changed for more than ${STALE_AFTER_MS / 3600_000} hours: the values are not current` } : {};
  return { data, as_of: data.as_of, meta };
};
