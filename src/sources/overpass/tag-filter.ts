/**
 * A type read from OpenStreetMap (a POI type, a place type) declared as a tag filter: the
 * union of its groups, each group a conjunction of tag conditions. The same declaration
 * builds the one Overpass query per city (query.ts) and sorts that query's answer back into
 * types (parse.ts), so the two can never disagree.
 */
export interface TagCondition {
  key: string;
  /** Exact value, or a regular expression when `regex` is set. */
  value: string;
  regex?: boolean;
}

export interface OsmTypeFilter {
  /** The type id (POI type parameter or place data type name). */
  id: string;
  groups: TagCondition[][];
}

export const tag = (key: string, value: string): TagCondition => ({ key, value });

function holds(tags: Record<string, string>, c: TagCondition): boolean {
  const v = tags[c.key];
  if (v === undefined) return false;
  return c.regex ? new RegExp(c.value).test(v) : v === c.value;
}

/** Whether an object's tags satisfy a type's filter (any group, all conditions of it). */
export function isOfType(tags: Record<string, string>, type: OsmTypeFilter): boolean {
  return type.groups.some((g) => g.every((c) => holds(tags, c)));
}

/** Tag filter as documented, e.g. `office=government or amenity=townhall`. */
export function describeTags(t: OsmTypeFilter): string {
  const cond = (c: TagCondition) => `${c.key}${c.regex ? `~"${c.value}"` : `=${c.value}`}`;
  return t.groups.map((g) => g.map(cond).join(' + ')).join(' or ');
}
