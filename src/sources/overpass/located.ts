/** One element of an Overpass answer (`out center tags`). */
export interface OverpassElement {
  type: string;
  id: number;
  lat?: number;
  lon?: number;
  center?: { lat: number; lon: number };
  tags?: Record<string, string>;
}

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** A German post code as the naming rule has it (five digits, leading zero kept), else null. */
export function postCode(v: unknown): string | null {
  const s = str(v);
  return s !== null && /^\d{5}$/.test(s) ? s : null;
}

/**
 * What every OSM item of the service carries (the osmLocated members of core/records/places.ts):
 * name, position (a node's, or a way's or relation's centre), address and opening hours.
 */
export function osmLocated(el: OverpassElement) {
  const t = el.tags ?? {};
  return {
    name: str(t.name),
    lat: num(el.lat) ?? num(el.center?.lat),
    lon: num(el.lon) ?? num(el.center?.lon),
    street: str(t['addr:street']),
    house_number: str(t['addr:housenumber']),
    post_code: postCode(t['addr:postcode']),
    place: str(t['addr:city']),
    opening_hours: str(t.opening_hours),
  };
}
