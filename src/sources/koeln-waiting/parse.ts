import type { OfficeWaitTimesRecord } from '../../core/records/places.ts';
import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

const optText = z.string().nullish();

/** `waiting-od.php`: every value a string; `timestamp` is Berlin wall-clock time without a zone. */
const FeedShape = z.looseObject({
  success: z.literal(true),
  items: z.array(z.looseObject({ title_anz: optText, timestamp: optText, link: optText, status: optText, sondertext: optText, wartezeit_minuten: optText })),
});
export type KoelnWaitingFeed = z.input<typeof FeedShape>;

/** The feed is taken as stale (frozen) when its newest timestamp is older than this. */
export const STALE_AFTER_MS = 24 * 3600_000;

const STATUS: Record<string, 'open' | 'closed'> = { '1': 'open', '2': 'closed' };

function localTime(v: string | null | undefined): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v?.trim() ?? '');
  if (!m) return null;
  const [, y, mo, d, h, mi, sec] = m;
  return toBerlinIso(berlinLocalToDate(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(sec ?? 0)));
}

const str = (v: string | null | undefined): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

export function parseWaitingFeed(answer: unknown, now: Date): OfficeWaitTimesRecord {
  const body = shaped(FeedShape, answer, 'Koeln waiting-od.php');
  const offices = body.items.map((i) => {
    const minutes = str(i.wartezeit_minuten);
    return {
      name: str(i.title_anz),
      status: STATUS[i.status ?? ''] ?? null,
      wait_minutes: minutes !== null && /^\d+$/.test(minutes) ? Number(minutes) : null,
      note: str(i.sondertext),
      url: str(i.link)?.replace(/^http:\/\//, 'https://') ?? null,
      updated_at: localTime(i.timestamp),
    };
  });
  const newest = offices.reduce<string | null>((m, o) => (o.updated_at && (!m || Date.parse(o.updated_at) > Date.parse(m)) ? o.updated_at : m), null);
  return { as_of: newest, stale: newest === null || now.getTime() - Date.parse(newest) > STALE_AFTER_MS, offices };
}
