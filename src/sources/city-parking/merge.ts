import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { distanceKm } from '../../cities/register.ts';
import { foldLetters } from '../../core/fold.ts';

/** Words that say what kind of car park it is, not which one ("Parkhaus Am Bahnhof" = "Am Bahnhof"). */
const KIND_WORDS = new Set([
  'parkhaus',
  'parkhauser',
  'parkhaeuser',
  'tiefgarage',
  'parkplatz',
  'parkgarage',
  'garage',
  'ph',
  'tg',
  'pp',
  'p',
  'pr',
  'und',
  'am',
  'an',
  'der',
  'die',
  'das',
  'im',
  'zum',
  'zur',
]);

/** The words of a name that identify the site: lower case, umlauts spelt out, kind words and P-numbers dropped. */
export function nameWords(name: string | null): string[] {
  return foldLetters(name ?? '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !KIND_WORDS.has(w) && !/^p\d+$/.test(w));
}

function similarNames(a: string | null, b: string | null): boolean {
  const wa = nameWords(a);
  const wb = new Set(nameWords(b));
  if (wa.length === 0 || wb.size === 0) return false;
  return wa.some((w) => w.length > 3 && wb.has(w)) || wa.join(' ') === [...wb].join(' ');
}

/** Within this many metres two sites are one whatever their names (different feeds place a site a few metres apart). */
const SAME_PLACE_M = 30;
/** Within this many metres two sites with a shared name word are one. */
const NEAR_M = 250;

/**
 * One car park reported by two feeds: the same place, or close and named alike. Sites without
 * coordinates are matched by name alone.
 */
export function sameSite(a: ParkingSiteRecord, b: ParkingSiteRecord): boolean {
  if (a.lat === null || a.lon === null || b.lat === null || b.lon === null) {
    const wa = nameWords(a.name).join(' ');
    return wa !== '' && wa === nameWords(b.name).join(' ');
  }
  const m = distanceKm(a.lat, a.lon, b.lat, b.lon) * 1000;
  return m <= SAME_PLACE_M || (m <= NEAR_M && similarNames(a.name, b.name));
}

/**
 * The sites of several feeds, given in order of preference (the city's own feed, then ParkAPI v3,
 * then ParkenDD): a site a preferred feed already lists is left out. Returns the kept sites and
 * how many each feed lost as duplicates.
 */
export function mergeSites(feeds: readonly { source: string; sites: readonly ParkingSiteRecord[] }[]): {
  sites: ParkingSiteRecord[];
  duplicates: Record<string, number>;
} {
  const kept: ParkingSiteRecord[] = [];
  const duplicates: Record<string, number> = {};
  for (const feed of feeds) {
    const before = [...kept];
    for (const s of feed.sites) {
      if (before.some((k) => sameSite(k, s))) duplicates[feed.source] = (duplicates[feed.source] ?? 0) + 1;
      else kept.push(s);
    }
  }
  return { sites: kept, duplicates };
}
