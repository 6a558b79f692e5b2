import type { Adapter } from '../../core/data-type.ts';
import type { SolarRoofsRecord } from '../../core/records/solar.ts';
import { CITIES } from '../../cities/register.ts';

export const solarRoofsKey = (slug: string) => `solar-roofs:${slug}`;
export const SOLAR_ROOFS_META_KEY = 'solar-roofs:meta';
/** Kept well beyond the weekly precompute, so a failed run leaves the last values in place. */
export const SOLAR_ROOFS_TTL_MS = 60 * 24 * 3600 * 1000;

/** The states with an open per-municipality source (NRW: Energieatlas). */
export const SOLAR_ROOFS_STATES = ['NW'] as const;
export const SOLAR_ROOFS_CITIES: readonly string[] = CITIES.filter((c) => (SOLAR_ROOFS_STATES as readonly string[]).includes(c.state)).map((c) => c.slug);

/** `solar-roofs`: what the precompute stored for the city. */
export const storedSolarRoofs: Adapter<SolarRoofsRecord> = async ({ city, store }) => {
  const raw = await store.get(solarRoofsKey(city.slug));
  if (raw === null) return { data: null, status: 'no_data', meta: { reason: 'the state data have not been precomputed yet' } };
  const record = JSON.parse(raw) as SolarRoofsRecord | { missing: true; year: number };
  if ('missing' in record)
    return { data: null, status: 'no_data', meta: { reason: `the ${record.year} state file lists no municipality with the city's AGS` } };
  return { data: record, as_of: null, meta: { year: record.year } };
};
