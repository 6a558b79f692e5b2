import type { Store } from '../../core/store.ts';

/** What the geo precompute writes per city: both geometries and the measures. No TTL: a failed refresh keeps the last one. */
export interface StoredGeo {
  ags: string;
  name: string | null;
  designation: string | null;
  effective_since: string | null;
  area_km2: number;
  centroid: { lat: number; lon: number };
  bbox: { min_lon: number; min_lat: number; max_lon: number; max_lat: number };
  simplify_tolerance_m: number;
  simplified: number[][][][];
  full: number[][][][];
  /** Last-Modified of the archive (the edition as published), zoned, or null. */
  edition: string | null;
  computed_at: string;
}

const key = (slug: string) => `geo:v1:${slug}`;
export const GEO_RUN_KEY = 'geo:v1:run';

export async function readStoredGeo(store: Store, slug: string): Promise<StoredGeo | null> {
  const raw = await store.get(key(slug));
  if (!raw) return null;
  const v = JSON.parse(raw) as StoredGeo;
  if (!Array.isArray(v.full) || !Array.isArray(v.simplified)) throw new Error(`stored geo of ${slug} is malformed`);
  return v;
}

export async function writeStoredGeo(store: Store, slug: string, value: StoredGeo): Promise<void> {
  await store.set(key(slug), JSON.stringify(value));
}
