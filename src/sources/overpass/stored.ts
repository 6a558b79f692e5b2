import type { Store } from '../../core/store.ts';
import type { PoiItem } from './parse.ts';

/**
 * What the POI precompute writes per city and type, and the pois data type reads. Entries
 * carry no TTL: a failed refresh keeps the previous week's value.
 */
export interface StoredPois {
  type: string;
  total_available: number;
  items: PoiItem[];
  item_cap: number;
  osm_base: string | null;
  computed_at: string;
}

const key = (slug: string, type: string) => `pois:v1:${slug}:${type}`;
const failKey = (slug: string, type: string) => `pois:v1:failed:${slug}:${type}`;

export async function readStoredPois(store: Store, slug: string, type: string): Promise<StoredPois | null> {
  const raw = await store.get(key(slug, type));
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as StoredPois;
    return Array.isArray(v.items) && typeof v.total_available === 'number' ? v : null;
  } catch {
    return null;
  }
}

export async function writeStoredPois(store: Store, slug: string, value: StoredPois): Promise<void> {
  await store.set(key(slug, value.type), JSON.stringify(value));
  await store.del(failKey(slug, value.type));
}

/** A failed city/type is not retried by the scheduled job before `ttlMs` has passed. */
export async function markPoisFailed(store: Store, slug: string, type: string, reason: string, ttlMs: number): Promise<void> {
  await store.set(failKey(slug, type), reason.slice(0, 300), ttlMs);
}

export async function poisFailedRecently(store: Store, slug: string, type: string): Promise<boolean> {
  return (await store.get(failKey(slug, type))) !== null;
}
