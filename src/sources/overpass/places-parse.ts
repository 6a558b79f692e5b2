import type { PlaceRecord } from '../../core/records/places.ts';
import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { assertComplete, byName, type OverpassAnswer, type OverpassElement } from './parse.ts';
import { isOfType, type PlaceType } from './place-types.ts';

export interface PlacesAnswer {
  /** Objects per place type id (every requested type present, possibly empty), sorted by name. */
  byType: Map<string, PlaceRecord[]>;
  /** Replication time of the OSM data, zoned. */
  osm_base: string | null;
}

const WHEELCHAIR = new Set(['yes', 'limited', 'no', 'designated']);

const str = (v: string | undefined): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const coord = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function yesNo(v: string | undefined): boolean | null {
  if (v === 'yes') return true;
  if (v === 'no') return false;
  return null;
}

function postCode(v: string | undefined): string | null {
  const s = str(v);
  return s !== null && /^\d{5}$/.test(s) ? s : null;
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
    name: str(t.name),
    lat: coord(el.lat) ?? coord(el.center?.lat),
    lon: coord(el.lon) ?? coord(el.center?.lon),
    street: str(t['addr:street']),
    house_number: str(t['addr:housenumber']),
    post_code: postCode(t['addr:postcode']),
    place: str(t['addr:city']),
    opening_hours: str(t.opening_hours),
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

/**
 * The answer to places-query.ts: echoed area, then every object of every place type. A
 * `runtime error` remark (timeout, memory) fails the whole answer, since its element list is
 * cut short; an answer without the echoed area means Overpass does not know the boundary.
 */
export function parsePlacesAnswer(body: OverpassAnswer, types: readonly PlaceType[]): PlacesAnswer {
  if (!body || typeof body !== 'object' || !Array.isArray(body.elements)) {
    throw new UpstreamError('parse', 'Overpass answer without elements');
  }
  assertComplete(body);
  if (!body.elements.some((e) => e?.type === 'area')) {
    throw new UpstreamError('parse', 'Overpass does not know the city area (no area element in the answer)');
  }
  const byType = new Map<string, PlaceRecord[]>(types.map((t) => [t.id, []]));
  for (const el of body.elements) {
    if (!el?.tags) continue;
    const item = parsePlaceElement(el);
    if (!item) continue;
    for (const t of types) if (isOfType(el.tags, t)) byType.get(t.id)!.push(item);
  }
  for (const list of byType.values()) list.sort(byName);
  const base = body.osm3s?.timestamp_osm_base;
  const osmBase = typeof base === 'string' && !Number.isNaN(Date.parse(base)) ? toBerlinIso(base) : null;
  return { byType, osm_base: osmBase };
}
