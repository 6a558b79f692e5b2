import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { splitStreet } from '../../core/address.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { occupancyShare, zoned } from './sites.ts';

/**
 * ParkenDD (api.parkendd.de) cities whose origin feed carries an open licence, with that
 * licence (research/infranode-facts.md, ParkenDD per city). Bonn (CC BY-NC), Nürnberg,
 * Ingolstadt, Magdeburg, Mannheim and others are left out: no open licence.
 */
export const PARKENDD_CITIES: Readonly<Record<string, { id: string; license: string }>> = {
  aachen: { id: 'Aachen', license: 'CC0 1.0 (Stadt Aachen)' },
  dortmund: { id: 'Dortmund', license: 'DL-DE/Zero 2.0 (Stadt Dortmund)' },
  dresden: { id: 'Dresden', license: 'DL-DE/BY 2.0 (Landeshauptstadt Dresden)' },
  hamburg: { id: 'Hamburg', license: 'DL-DE/BY 2.0 (Freie und Hansestadt Hamburg)' },
  heidelberg: { id: 'Heidelberg', license: 'CC BY 4.0 (Stadt Heidelberg)' },
  heilbronn: { id: 'Heilbronn', license: 'DL-DE/BY 2.0 (Stadt Heilbronn)' },
  kaiserslautern: { id: 'Kaiserslautern', license: 'CC0 1.0 (Stadt Kaiserslautern)' },
  koeln: { id: 'Koeln', license: 'DL-DE/Zero 2.0 (Stadt Köln)' },
  muenster: { id: 'Muenster', license: 'DL-DE/BY 2.0 (Stadt Münster)' },
  oldenburg: { id: 'Oldenburg', license: 'DL-DE/BY 2.0 (Stadt Oldenburg)' },
  ulm: { id: 'Ulm', license: 'CC0 1.0 (Stadt Ulm)' },
};

const optText = z.string().nullish();
const optNumber = z.number().nullish();

/** ParkAPI v1 city answer: a lot's `free` is absent when the state is nodata; coordinates as `coords.lat/lng`. */
const V1CityShape = z.looseObject({
  last_downloaded: optText,
  last_updated: optText,
  lots: z.array(
    z.looseObject({
      id: optText,
      name: optText,
      address: optText,
      coords: z.looseObject({ lat: optNumber, lng: optNumber }).nullish(),
      free: optNumber,
      total: optNumber,
      state: optText,
      lot_type: optText,
    }),
  ),
});

/** ParkAPI v1 times are UTC written without a zone ("2025-02-25T12:20:03.588839"). */
function utc(v: string | null | undefined): string | null {
  if (!v) return null;
  return zoned(Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`));
}

/** "Seeländerplatz 1, 71083 Herrenberg", "71083 Herrenberg" or a bare place description. */
function address(a: string | null | undefined) {
  const parts = (a ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let post_code: string | null = null,
    place: string | null = null;
  const rest: string[] = [];
  for (const p of parts) {
    const m = /^(\d{5})\s+(.+)$/.exec(p);
    if (m?.[1] && !post_code) {
      post_code = m[1];
      place = m[2] ?? null;
    } else rest.push(p);
  }
  return { ...splitStreet(rest[0]), post_code, place };
}

const STATE: Record<string, ParkingSiteRecord['state']> = {
  open: 'open',
  many: 'open',
  few: 'open',
  full: 'open',
  closed: 'closed',
  nodata: 'unknown',
  unknown: 'unknown',
};

/** One ParkenDD city answer; `source` and `license` name the origin feed. */
export function parseParkenddCity(body: unknown, source: string, license: string): { updated_at: string | null; sites: ParkingSiteRecord[] } {
  const b = shaped(V1CityShape, body, 'ParkenDD city');
  const updated = utc(b.last_updated);
  const sites = b.lots.map((l) => {
    const capacity = typeof l.total === 'number' && l.total > 0 ? l.total : null;
    const state = STATE[(l.state ?? '').toLowerCase()] ?? null;
    // ParkenDD writes free 0 or leaves it out for "nodata"; a value above the capacity or below zero is no count either.
    const ok = typeof l.free === 'number' && l.free >= 0 && state !== 'unknown' && (capacity === null || l.free <= capacity);
    const free = ok ? (l.free as number) : null;
    return {
      id: `${source}:${l.id ?? ''}`,
      name: l.name?.trim() || null,
      ...address(l.address),
      lat: typeof l.coords?.lat === 'number' ? l.coords.lat : null,
      lon: typeof l.coords?.lng === 'number' ? l.coords.lng : null,
      capacity,
      free_spaces: free,
      occupancy_share: occupancyShare(free, capacity),
      state,
      live: free !== null,
      updated_at: free !== null ? updated : null,
      source,
      license,
    };
  });
  return { updated_at: updated, sites };
}
