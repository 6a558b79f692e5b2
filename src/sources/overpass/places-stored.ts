import type { Store } from '../../core/store.ts';
import type { PlaceRecord } from '../../core/records/places.ts';

/**
 * What the place precompute writes: per city and type the full object list, and per city a
 * small run record (when, which OSM state, how many per type) that the job reads to find due
 * cities without loading the lists. No TTL: a failed refresh keeps last week's values.
 */
export interface StoredPlaces {
  type: string;
  items: PlaceRecord[];
  osm_base: string | null;
  computed_at: string;
}

export interface PlacesRun {
  computed_at: string;
  osm_base: string | null;
  counts: Record<string, number>;
}

const listKey = (slug: string, type: string) => `places:v1:${slug}:${type}`;
const runKey = (slug: string) => `places:v1:run:${slug}`;
const failKey = (slug: string) => `places:v1:failed:${slug}`;

export async function readStoredPlaces(store: Store, slug: string, type: string): Promise<StoredPlaces | null> {
  const raw = await store.get(listKey(slug, type));
  if (!raw) return null;
  const v = JSON.parse(raw) as StoredPlaces;
  if (!Array.isArray(v.items) || typeof v.computed_at !== 'string') throw new Error(`stored ${type} of ${slug} is malformed`);
  return v;
}

export async function readPlacesRun(store: Store, slug: string): Promise<PlacesRun | null> {
  const raw = await store.get(runKey(slug));
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as PlacesRun;
    return typeof v.computed_at === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** Lists first, the run record last: a city counts as done only when all its lists are written. */
export async function writeStoredPlaces(store: Store, slug: string, lists: readonly StoredPlaces[], run: PlacesRun): Promise<void> {
  for (const l of lists) await store.set(listKey(slug, l.type), JSON.stringify(l));
  await store.set(runKey(slug), JSON.stringify(run));
  await store.del(failKey(slug));
}

/** A failed city is not retried by the scheduled job before `ttlMs` has passed. */
export async function markPlacesFailed(store: Store, slug: string, reason: string, ttlMs: number): Promise<void> {
  await store.set(failKey(slug), reason.slice(0, 300), ttlMs);
}

export async function placesFailedRecently(store: Store, slug: string): Promise<boolean> {
  return (await store.get(failKey(slug))) !== null;
}
