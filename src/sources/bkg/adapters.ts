import type { Adapter } from '../../core/data-type.ts';
import type { GeoRecord } from '../../core/records/city-base.ts';
import { readStoredGeo } from './stored.ts';

const points = (c: number[][][][]) => c.reduce((s, p) => s + p.reduce((t, r) => t + r.length, 0), 0);

/** The city's boundary as the geo precompute stored it (`detail=full` for the unsimplified polygon). */
export const cityBoundary: Adapter<GeoRecord> = async ({ city, store, params }) => {
  const stored = await readStoredGeo(store, city.slug);
  if (!stored) return { data: null, status: 'no_data', meta: { reason: 'the boundary precompute has not run yet' } };
  const full = params.detail === 'full';
  const coordinates = full ? stored.full : stored.simplified;
  return {
    data: {
      ags: stored.ags,
      name: stored.name,
      designation: stored.designation,
      area_km2: stored.area_km2,
      centroid: stored.centroid,
      bbox: stored.bbox,
      detail: full ? 'full' : 'simplified',
      simplify_tolerance_m: full ? null : stored.simplify_tolerance_m,
      points: points(coordinates),
      effective_since: stored.effective_since,
      geometry: { type: 'MultiPolygon', coordinates },
    },
    meta: { computed_at: stored.computed_at, edition: stored.edition },
  };
};
