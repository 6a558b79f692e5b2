import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { PoiType } from './poi-types.ts';
import { osmLocated, str, type OverpassElement } from './located.ts';
import { isOfType, type OsmTypeFilter } from './tag-filter.ts';

/** Overpass `[out:json]` answer (https://wiki.openstreetmap.org/wiki/Overpass_API/Overpass_QL). */
export interface OverpassAnswer {
  version?: number;
  generator?: string;
  osm3s?: { timestamp_osm_base?: string; timestamp_areas_base?: string; copyright?: string };
  elements?: OverpassElement[];
  remark?: string;
}

export type { OverpassElement } from './located.ts';

export interface PoiItem {
  name: string | null;
  lat: number | null;
  lon: number | null;
  street: string | null;
  house_number: string | null;
  post_code: string | null;
  place: string | null;
  opening_hours: string | null;
  osm_type: 'node' | 'way' | 'relation';
  osm_id: number;
  /** The type's `keepTags` as mapped (only for types that declare them). */
  tags?: Record<string, string>;
}

/**
 * Overpass reports timeouts and memory exhaustion as HTTP 200 with a `remark` and whatever
 * elements it had so far; such an answer is a failure, not a (partial) result.
 */
export function assertComplete(body: OverpassAnswer): void {
  if (typeof body?.remark === 'string' && /runtime error/i.test(body.remark)) {
    throw new UpstreamError('parse', `Overpass: ${body.remark.slice(0, 200)}`);
  }
}

export function parsePoiElement(el: OverpassElement, keepTags?: readonly string[]): PoiItem | null {
  if (el.type !== 'node' && el.type !== 'way' && el.type !== 'relation') return null;
  if (typeof el.id !== 'number') return null;
  const t = el.tags ?? {};
  const kept = keepTags ? Object.fromEntries(keepTags.filter((k) => str(t[k]) !== null).map((k) => [k, (t[k] ?? '').trim()])) : undefined;
  return {
    ...(kept ? { tags: kept } : {}),
    ...osmLocated(el),
    osm_type: el.type,
    osm_id: el.id,
  };
}

/** Unnamed objects last; the OSM type and id keep the order stable between runs (POIs and places alike). */
export function byName(
  a: { name: string | null; osm_type: string | null; osm_id: number | null },
  b: { name: string | null; osm_type: string | null; osm_id: number | null },
): number {
  if (a.name !== b.name) {
    if (a.name === null) return 1;
    if (b.name === null) return -1;
    const c = a.name.localeCompare(b.name, 'de');
    if (c !== 0) return c;
  }
  if (a.osm_type !== b.osm_type) return (a.osm_type ?? '') < (b.osm_type ?? '') ? -1 : 1;
  return (a.osm_id ?? 0) - (b.osm_id ?? 0);
}

/** An Overpass answer sorted into types: every requested type present (possibly empty), sorted by name. */
export interface SplitAnswer<T> {
  byType: Map<string, T[]>;
  /** Replication time of the OSM data the answer was computed from, zoned. */
  osm_base: string | null;
}

/**
 * The answer to query.ts's cityQuery, sorted into types by their tag filters; `item` turns an
 * element into the type's record (null skips it). A `runtime error` remark (timeout, memory)
 * fails the whole answer, since its element list is cut short; an answer without the echoed
 * area means Overpass does not know the boundary, which must not count as zero objects.
 */
export function splitAnswer<T, F extends OsmTypeFilter>(
  body: OverpassAnswer,
  types: readonly F[],
  item: (el: OverpassElement, type: F) => T | null,
  order: (a: T, b: T) => number,
): SplitAnswer<T> {
  if (!body || typeof body !== 'object' || !Array.isArray(body.elements)) {
    throw new UpstreamError('parse', 'Overpass answer without elements');
  }
  assertComplete(body);
  if (!body.elements.some((e) => e?.type === 'area')) {
    throw new UpstreamError('parse', 'Overpass does not know the city area (no area element in the answer)');
  }
  const byType = new Map<string, T[]>(types.map((t) => [t.id, []]));
  for (const el of body.elements) {
    if (!el?.tags) continue;
    for (const t of types) {
      if (!isOfType(el.tags, t)) continue;
      const parsed = item(el, t);
      if (parsed !== null) byType.get(t.id)!.push(parsed);
    }
  }
  for (const list of byType.values()) list.sort(order);
  const base = body.osm3s?.timestamp_osm_base;
  const osmBase = typeof base === 'string' && !Number.isNaN(Date.parse(base)) ? toBerlinIso(base) : null;
  return { byType, osm_base: osmBase };
}

/** The POI precompute's answer (query.ts cityQuery over the POI types) sorted into types, each item with its type's kept tags. */
export function parsePoisAnswer(body: OverpassAnswer, types: readonly PoiType[]): SplitAnswer<PoiItem> {
  return splitAnswer(body, types, (el, t) => parsePoiElement(el, t.keepTags), byName);
}
