import type { TagCondition } from './poi-types.ts';

/**
 * The place data types read from OpenStreetMap (one route each, e.g. /cities/{slug}/drinking-water)
 * and the tags that define them. Like POI types, a type is the union of its filter groups and a
 * group is a conjunction of tag conditions; the weekly place precompute asks for all of them in
 * one query per city and sorts the answer's objects into types by these same conditions.
 */
export interface PlaceType {
  /** The data type name, also the route suffix. */
  id: string;
  groups: TagCondition[][];
}

const tag = (key: string, value: string): TagCondition => ({ key, value });

export const PLACE_TYPES: readonly PlaceType[] = [
  { id: 'drinking-water', groups: [[tag('amenity', 'drinking_water')]] },
  { id: 'playgrounds', groups: [[tag('leisure', 'playground')]] },
  { id: 'post-boxes', groups: [[tag('amenity', 'post_box')]] },
  { id: 'post-offices', groups: [[tag('amenity', 'post_office')]] },
  { id: 'public-toilets', groups: [[tag('amenity', 'toilets')]] },
  // Wi-Fi offered free of charge; `internet_access=wlan` alone would list every café with a paid hotspot.
  { id: 'public-wifi', groups: [[tag('internet_access', 'wlan'), tag('internet_access:fee', 'no')]] },
  // Recycling centres (Wertstoffhöfe), not the many street-side container sites.
  { id: 'recycling-centres', groups: [[tag('amenity', 'recycling'), tag('recycling_type', 'centre')]] },
  { id: 'parcel-lockers', groups: [[tag('amenity', 'parcel_locker')]] },
  { id: 'markets', groups: [[tag('amenity', 'marketplace')]] },
  { id: 'government-offices', groups: [[tag('office', 'government')], [tag('amenity', 'townhall')]] },
];

export const PLACE_TYPE_BY_ID: ReadonlyMap<string, PlaceType> = new Map(PLACE_TYPES.map((t) => [t.id, t]));

function holds(tags: Record<string, string>, c: TagCondition): boolean {
  const v = tags[c.key];
  if (v === undefined) return false;
  return c.regex ? new RegExp(c.value).test(v) : v === c.value;
}

/** Whether an object's tags satisfy a type's definition (any group, all conditions of it). */
export function isOfType(tags: Record<string, string>, type: PlaceType): boolean {
  return type.groups.some((g) => g.every((c) => holds(tags, c)));
}

/** Tag definition as documented, e.g. `office=government or amenity=townhall`. */
export function describePlaceTags(t: PlaceType): string {
  const cond = (c: TagCondition) => `${c.key}${c.regex ? `~"${c.value}"` : `=${c.value}`}`;
  return t.groups.map((g) => g.map(cond).join(' + ')).join(' or ');
}
