import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { FEEDS } from './source.ts';
import { occupancyShare, zoned } from './sites.ts';

/**
 * One record of Dortmund's Opendatasoft dataset `parkhauser` (Explore API v2.1): flat members,
 * `frei` free spaces, `capacity`, `parkeinrichtung` the opening state, `zeitstempel` the time of
 * the count, `geo_point_2d` the position; `type` tells car parks from P+R sites.
 */
const OdsShape = z.looseObject({
  results: z.array(
    z.looseObject({
      id: z.union([z.string(), z.number()]).nullish(),
      name: z.string().nullish(),
      type: z.string().nullish(),
      capacity: z.number().nullish(),
      frei: z.number().nullish(),
      parkeinrichtung: z.string().nullish(),
      zeitstempel: z.string().nullish(),
      geo_point_2d: z.looseObject({ lon: z.number().nullish(), lat: z.number().nullish() }).nullish(),
    }),
  ),
});

function state(v: string | null | undefined): ParkingSiteRecord['state'] {
  const s = (v ?? '').toLowerCase();
  if (s.startsWith('ge\u00f6ffnet') || s.startsWith('geoeffnet') || s.startsWith('geoffnet') || s === 'offen') return 'open';
  if (s.startsWith('geschlossen')) return 'closed';
  return null;
}

export function parseDortmundParkhaeuser(body: unknown): ParkingSiteRecord[] {
  const b = shaped(OdsShape, body, 'Dortmund Opendatasoft parkhauser');
  return b.results.map((r) => {
    const capacity = typeof r.capacity === 'number' && r.capacity > 0 ? r.capacity : null;
    const raw = r.frei;
    const count = typeof raw === 'number' && raw >= 0 && (capacity === null || raw <= capacity) ? raw : null;
    const updated = count === null || !r.zeitstempel ? null : zoned(Date.parse(r.zeitstempel));
    const free = updated === null ? null : count;
    const { lat, lon } = r.geo_point_2d ?? {};
    return {
      id: `${FEEDS.dortmund.source}:${r.id ?? ''}`,
      name: r.name?.trim() || null,
      street: null,
      house_number: null,
      post_code: null,
      place: 'Dortmund',
      lat: typeof lat === 'number' ? lat : null,
      lon: typeof lon === 'number' ? lon : null,
      capacity,
      free_spaces: free,
      occupancy_share: occupancyShare(free, capacity),
      state: state(r.parkeinrichtung),
      live: typeof raw === 'number',
      updated_at: updated,
      source: FEEDS.dortmund.source,
      license: FEEDS.dortmund.license,
    };
  });
}
