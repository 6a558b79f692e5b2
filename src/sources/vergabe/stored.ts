import type { City } from '../../cities/register.ts';
import type { Store } from '../../core/store.ts';
import type { TenderRecord } from '../../core/records/tenders.ts';
import { foldLetters } from '../../core/fold.ts';

/** Store keys written by the tenders-ingest job: one list per publication day, and the index of days. */
export const tendersDayKey = (day: string) => `tenders:v1:day:${day}`;
export const TENDERS_INDEX_KEY = 'tenders:v1:index';
/** Publication days kept (and served): the last two weeks. */
export const TENDER_DAYS = 14;
export const TENDERS_TTL_MS = (TENDER_DAYS + 7) * 86_400_000;

export interface TendersIndex {
  days: string[];
  computed_at: string;
}

/** Every stored tender, newest first, each notice once. */
export async function storedTenders(store: Store): Promise<{ index: TendersIndex | null; tenders: TenderRecord[] }> {
  const raw = await store.get(TENDERS_INDEX_KEY);
  if (!raw) return { index: null, tenders: [] };
  const index = JSON.parse(raw) as TendersIndex;
  const seen = new Set<string>();
  const tenders: TenderRecord[] = [];
  for (const day of index.days) {
    const list = await store.get(tendersDayKey(day));
    for (const t of list ? (JSON.parse(list) as TenderRecord[]) : []) {
      if (t.notice_id && seen.has(t.notice_id)) continue;
      if (t.notice_id) seen.add(t.notice_id);
      tenders.push(t);
    }
  }
  tenders.sort((a, b) => (b.published ?? '').localeCompare(a.published ?? ''));
  return { index, tenders };
}

const PREFIXES = /^(landeshauptstadt|hansestadt|freie und hansestadt|universitaetsstadt|wissenschaftsstadt|kreisfreie stadt|stadt)\s+/;

/** A buyer locality folded for comparison: case, umlauts, "Stadt …" prefixes and ", Stadt" suffixes removed. */
export function placeKey(place: string): string {
  return foldLetters(place)
    .replace(/,\s*stadt$/, '')
    .replace(PREFIXES, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The buyer's locality names the city (its name or an alias); a post code alone is not enough. */
export function buyerInCity(t: TenderRecord, city: City): boolean {
  if (!t.place) return false;
  const key = placeKey(t.place);
  return [city.name, ...city.aliases].some((n) => placeKey(n) === key);
}
