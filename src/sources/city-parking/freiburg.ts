import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { berlinLocalToDate } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { FEEDS } from './source.ts';
import { occupancyShare, zoned } from './sites.ts';
import { utmToLatLon } from '../../core/utm.ts';

const optText = z.string().nullish();

/** Freiburg's parking guidance WFS (`typename=pls`) as GeoJSON: every value is a string. */
const PlsShape = z.looseObject({
  type: z.literal('FeatureCollection'),
  crs: z.looseObject({ properties: z.looseObject({ name: optText }).nullish() }).nullish(),
  features: z.array(
    z.looseObject({
      properties: z.looseObject({ park_id: optText, obs_parkid: optText, park_name: optText, obs_max: optText, obs_free: optText, obs_ts: optText }).nullish(),
      geometry: z.looseObject({ coordinates: z.array(z.number()).nullish() }).nullish(),
    }),
  ),
});

const intOf = (v: string | null | undefined): number | null => (v !== null && v !== undefined && /^-?\d+$/.test(v.trim()) ? Number(v) : null);

/** `obs_ts` is local time without a zone ("2024-06-10 10:20:00"). */
function localTime(v: string | null | undefined): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec((v ?? '').trim());
  if (!m) return null;
  return zoned(berlinLocalToDate(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0)).getTime());
}

export function parseFreiburgPls(body: unknown): ParkingSiteRecord[] {
  const fc = shaped(PlsShape, body, 'Freiburg parking WFS');
  // The layer is published in EPSG:25832 unless WGS 84 is asked for; both are read.
  const utm = /EPSG::?25832/i.test(fc.crs?.properties?.name ?? '');
  return fc.features.map((f) => {
    const p = f.properties ?? {};
    const [x = NaN, y = NaN] = f.geometry?.coordinates ?? [];
    const pos = Number.isFinite(x) && Number.isFinite(y) ? (utm ? utmToLatLon(x, y, 32) : { lat: y, lon: x }) : null;
    const max = intOf(p.obs_max);
    // A capacity of 0 is the feed's "no data" (the site reports nothing), not an empty car park.
    const capacity = max !== null && max > 0 ? max : null;
    const free = capacity === null ? null : intOf(p.obs_free);
    return {
      id: `${FEEDS.freiburg.source}:${p.park_id ?? p.obs_parkid ?? ''}`,
      name: p.park_name ?? null,
      street: null,
      house_number: null,
      post_code: null,
      place: 'Freiburg im Breisgau',
      lat: pos ? Math.round(pos.lat * 1e6) / 1e6 : null,
      lon: pos ? Math.round(pos.lon * 1e6) / 1e6 : null,
      capacity,
      free_spaces: free,
      occupancy_share: occupancyShare(free, capacity),
      // The city documents no meaning for obs_state; ParkAPI's mappings of it disagree between versions.
      state: null,
      live: true,
      updated_at: localTime(p.obs_ts),
      source: FEEDS.freiburg.source,
      license: FEEDS.freiburg.license,
    };
  });
}
