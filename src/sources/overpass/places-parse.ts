import type { PlaceRecord } from '../../core/records/places.ts';
import { byName, splitAnswer, type OverpassAnswer, type OverpassElement, type SplitAnswer } from './parse.ts';
import type { PlaceType } from './place-types.ts';
import { osmLocated, str } from './located.ts';

const WHEELCHAIR = new Set(['yes', 'limited', 'no', 'designated']);

function yesNo(v: string | undefined): boolean | null {
  if (v === 'yes') return true;
  if (v === 'no') return false;
  return null;
}

function capacity(v: string | undefined): number | null {
  const s = str(v);
  return s !== null && /^\d+$/.test(s) ? Number(s) : null;
}

function materials(tags: Record<string, string>): string[] | null {
  const out = Object.entries(tags)
    .filter(([k, v]) => k.startsWith('recycling:') && v === 'yes')
    .map(([k]) => k.slice('recycling:'.length))
    .sort();
  return out.length ? out : null;
}

export function parsePlaceElement(el: OverpassElement): PlaceRecord | null {
  if (el.type !== 'node' && el.type !== 'way' && el.type !== 'relation') return null;
  if (typeof el.id !== 'number') return null;
  const t = el.tags ?? {};
  const wheelchair = str(t.wheelchair);
  return {
    ...osmLocated(el),
    operator: str(t.operator),
    brand: str(t.brand),
    fee: yesNo(t.fee),
    wheelchair: wheelchair !== null && WHEELCHAIR.has(wheelchair) ? (wheelchair as PlaceRecord['wheelchair']) : null,
    capacity: capacity(t.capacity),
    collection_times: str(t.collection_times),
    recycling_materials: materials(t),
    website: str(t.website) ?? str(t['contact:website']),
    osm_type: el.type,
    osm_id: el.id,
  };
}

/** The place precompute's answer (query.ts cityQuery over the place types) sorted into types. */
export function parsePlacesAnswer(body: OverpassAnswer, types: readonly PlaceType[]): SplitAnswer<PlaceRecord> {
  return splitAnswer(body, types, (el) => parsePlaceElement(el), byName);
}
