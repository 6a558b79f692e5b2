import type { JobHost } from '../core/job.ts';
import { VERGABE } from '../sources/vergabe/source.ts';
import { tendersInExport } from '../sources/vergabe/export-zip.ts';
import { TENDERS_INDEX_KEY, TENDERS_TTL_MS, TENDER_DAYS, tendersDayKey, type TendersIndex } from '../sources/vergabe/stored.ts';
import { berlinOffsetMinutes } from '../core/time.ts';
import type { ScheduledJob } from '../core/job.ts';

/** The calendar day in Europe/Berlin `back` days before `now`, as YYYY-MM-DD. */
export function berlinDay(now: Date, back: number): string {
  const t = new Date(now.getTime() - back * 86_400_000);
  return new Date(t.getTime() + berlinOffsetMinutes(t) * 60_000).toISOString().slice(0, 10);
}

/** Days re-read on every run: the portal amends a day's archive for a while after the day. */
const REFRESH_DAYS = 2;

/**
 * Reads the OCDS exports of the last publication days (today is never published yet) into the
 * store, one list per day; days already stored are kept except the most recent ones. A failed
 * day keeps what was stored for it.
 */
export async function ingestTenders(rt: JobHost, log: (msg: string) => void = () => {}, now = new Date()): Promise<TendersIndex> {
  const http = rt.http(VERGABE);
  const days: string[] = [];
  let fetched = 0;
  let failed = 0;
  for (let back = 1; back <= TENDER_DAYS; back++) {
    const day = berlinDay(now, back);
    days.push(day);
    if (back > REFRESH_DAYS && (await rt.store.get(tendersDayKey(day))) !== null) continue;
    try {
      const res = await http.request('/notice-exports', { query: { pubDay: day, format: 'ocds.zip' }, okStatuses: [404] });
      // 404: no export for that day (nothing published).
      const tenders = res.status === 404 ? [] : await tendersInExport(res.body);
      await rt.store.set(tendersDayKey(day), JSON.stringify(tenders), TENDERS_TTL_MS);
      fetched++;
    } catch (err) {
      failed++;
      log(`tenders: ${day} failed: ${String(err)}`);
    }
  }
  if (fetched === 0 && failed > 0) throw new Error(`tenders: every export failed (${failed} days)`);
  const index: TendersIndex = { days, computed_at: new Date().toISOString() };
  await rt.store.set(TENDERS_INDEX_KEY, JSON.stringify(index), TENDERS_TTL_MS);
  log(`tenders: ${fetched} days read, ${failed} failed`);
  return index;
}

export const tendersIngest: ScheduledJob = {
  name: 'tenders-ingest',
  intervalMs: 6 * 3600 * 1000,
  initialDelayMs: 90_000,
  enabled: (rt) => rt.sourceEnabled(VERGABE),
  run: async (rt, log) => {
    await ingestTenders(rt, log);
  },
};
