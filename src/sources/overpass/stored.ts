import type { AdapterResult } from '../../core/data-type.ts';
import type { Store } from '../../core/store.ts';
import type { PoiItem } from './parse.ts';

/** Largest item sample stored per city and type; total_available is always the full count. */
export const ITEM_CAP = 500;

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
/** The precompute queries a city's POI types together, so a failure holds back the whole city. */
const failKey = (slug: string) => `pois:v1:failed:${slug}`;

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

/** Every type of one city's answer, then the failure hold is lifted. */
export async function writeStoredPois(store: Store, slug: string, values: readonly StoredPois[]): Promise<void> {
  for (const v of values) await store.set(key(slug, v.type), JSON.stringify(v));
  await store.del(failKey(slug));
}

/** A failed city is not retried by the scheduled job before `ttlMs` has passed. */
export async function markPoisFailed(store: Store, slug: string, reason: string, ttlMs: number): Promise<void> {
  await store.set(failKey(slug), reason.slice(0, 300), ttlMs);
}

export async function poisFailedRecently(store: Store, slug: string): Promise<boolean> {
  return (await store.get(failKey(slug))) !== null;
}

/**
 * The stored objects of one type with the meta every answer of them carries, or the `no_data`
 * answer saying why there are none: the precompute has not run for the city, or OpenStreetMap has
 * none mapped (`label` names the objects in that reason).
 */
export async function storedPoisOrNone(
  store: Store,
  slug: string,
  type: string,
  label: string,
): Promise<{ stored: StoredPois; meta: { computed_at: string; item_cap: number } } | { none: AdapterResult<never> }> {
  const stored = await readStoredPois(store, slug, type);
  if (!stored) return { none: { data: null, status: 'no_data', meta: { reason: `the weekly POI precompute has not run yet for ${label} in this city` } } };
  const meta = { computed_at: stored.computed_at, item_cap: stored.item_cap };
  if (stored.total_available > 0) return { stored, meta };
  return {
    none: {
      data: null,
      status: 'no_data',
      as_of: stored.osm_base,
      meta: { ...meta, total_available: 0, reason: `OpenStreetMap has no ${label} mapped within the city boundary` },
    },
  };
}
