import { CITIES, distanceKm, type City } from '../../src/cities/register.ts';

/**
 * Where an answer says its data is: every place marker found anywhere in `data`, checked against
 * the city that was asked for. Used to prove that no answer shows one place's data under another
 * place's name (test/demo-places.test.ts).
 */
export interface Markers {
  /** Coordinates: `lat`/`lon` (or `latitude`/`longitude`, `lng`) pairs and GeoJSON geometries. */
  points: { path: string; lat: number; lon: number }[];
  /** Official keys (AGS, ARS, Kreis keys), warn cells ("8" + AGS) and DELFI stop ids (`de:<AGS5>:…`), as key digits. */
  keys: { path: string; digits: string }[];
  /** Names of the place itself (a station, stop, region or warn cell), not of destinations. */
  names: { path: string; name: string }[];
  /** ISO 3166-2 subdivisions (`DE-BY`). */
  subdivisions: { path: string; code: string }[];
}

/** Keys whose value is an official area key of the answer's place. */
const KEY_FIELDS = new Set(['ags', 'ars', 'region_key', 'kreis_key', 'city_key', 'municipality_key', 'district_key', 'regionalschluessel']);
/** Objects that describe the answer's own place, whose `name` must be the asked city's. */
const PLACE_OBJECTS = new Set(['station', 'stop', 'region', 'warn_cell', 'location', 'city', 'gauges']);
/** Fields that name the answer's place directly. */
const NAME_FIELDS = new Set(['region_name', 'city_name', 'kreis_name', 'municipality', 'city', 'place']);

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function markersOf(data: unknown): Markers {
  const m: Markers = { points: [], keys: [], names: [], subdivisions: [] };
  const visit = (v: unknown, path: string, key: string) => {
    if (typeof v === 'string') {
      const delfi = /^de:(\d{5}):/.exec(v);
      if (delfi) m.keys.push({ path, digits: delfi[1]! });
      else if (KEY_FIELDS.has(key) && /^\d{2,12}$/.test(v)) m.keys.push({ path, digits: v });
      if (NAME_FIELDS.has(key)) m.names.push({ path, name: v });
      if (key === 'subdivision_code' && /^DE-[A-Z]{2}$/.test(v)) m.subdivisions.push({ path, code: v });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, `${path}.${i}`, key));
      return;
    }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const lat = num(o.lat) ?? num(o.latitude);
    const lon = num(o.lon) ?? num(o.lng) ?? num(o.longitude);
    if (lat !== null && lon !== null) m.points.push({ path, lat, lon });
    const first = firstPosition(o);
    if (first) m.points.push({ path: `${path}.coordinates`, lat: first[1], lon: first[0] });
    if (key === 'warn_cell' && (typeof o.id === 'number' || typeof o.id === 'string')) m.keys.push({ path: `${path}.id`, digits: String(o.id).slice(1) });
    // A place with coordinates is judged by them: a measuring station near the city may bear a neighbour's name.
    if (PLACE_OBJECTS.has(key) && typeof o.name === 'string' && (lat === null || lon === null)) m.names.push({ path: `${path}.name`, name: o.name });
    for (const [k, x] of Object.entries(o)) visit(x, `${path}.${k}`, k);
  };
  visit(data, 'data', 'data');
  return m;
}

/** The first [lon, lat] of a GeoJSON geometry. */
function firstPosition(o: Record<string, unknown>): [number, number] | null {
  if (typeof o.type !== 'string' || !Array.isArray(o.coordinates)) return null;
  let c: unknown = o.coordinates;
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0];
  return Array.isArray(c) && num(c[0]) !== null && num(c[1]) !== null ? [c[0] as number, c[1] as number] : null;
}

/** Word-bounded, so that "Essen" is found in "Essen Hbf" but not in "Essenheim". */
const word = (w: string) => new RegExp(`(?<![\\p{L}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u');
/** A city's name as it shows in other names: "Frankfurt am Main" as "Frankfurt", "Halle (Saale)" as "Halle". */
const shortName = (c: City) => c.name.split(/[\s,(/]/)[0]!;
const NAME_PATTERNS = CITIES.map((c) => ({ city: c, re: word(shortName(c)) }));

/**
 * Two official keys of nested areas agree when one is a prefix of the other (state, Kreis,
 * municipality); a key padded with zeros (a Kreis as `084150000000`) counts without them.
 */
const unpadded = (k: string) => k.replace(/0+$/, '');
const nested = (a: string, b: string) => unpadded(a).startsWith(unpadded(b)) || unpadded(b).startsWith(unpadded(a));

export interface Verdict {
  /** Why the answer is not the city's, or null. */
  wrong: string | null;
  /** How many markers were checked. */
  checked: number;
}

/**
 * Every marker must be the city's: points within `radiusKm` of its register point (with `anyPoint`,
 * one such point is enough: a trip or a line also runs elsewhere), official keys nested with its
 * AGS/ARS, place names naming it rather than another register city, subdivisions of its state.
 */
export function verdict(data: unknown, city: City, opts: { radiusKm: number; anyPoint?: boolean }): Verdict {
  const m = markersOf(data);
  const checked = m.points.length + m.keys.length + m.names.length + m.subdivisions.length;
  const far = m.points.filter((p) => distanceKm(p.lat, p.lon, city.lat, city.lon) > opts.radiusKm);
  if (m.points.length && (opts.anyPoint ? far.length === m.points.length : far.length > 0)) {
    const p = far[0]!;
    return { wrong: `${p.path} (${p.lat}, ${p.lon}) is ${Math.round(distanceKm(p.lat, p.lon, city.lat, city.lon))} km from ${city.name}`, checked };
  }
  const foreignKeys = m.keys.filter((k) => !nested(k.digits, k.digits.length > 8 ? city.ars : city.ags));
  if (foreignKeys.length && !(opts.anyPoint && foreignKeys.length < m.keys.length)) {
    const k = foreignKeys[0]!;
    return { wrong: `${k.path} = ${k.digits} is no key of ${city.name} (${city.ags})`, checked };
  }
  const own = word(shortName(city));
  for (const n of m.names) {
    if (own.test(n.name)) continue;
    const other = NAME_PATTERNS.find((p) => p.city.slug !== city.slug && p.re.test(n.name));
    if (other) return { wrong: `${n.path} = "${n.name}" names ${other.city.name}`, checked };
  }
  const sub = m.subdivisions.find((s) => s.code !== `DE-${city.state}`);
  if (sub) return { wrong: `${sub.path} = ${sub.code} is not ${city.state_name}`, checked };
  return { wrong: null, checked };
}

/**
 * Figures a fake that ignores the place would repeat for every city: numbers of 1,000 and more
 * that are not years, by path. Two cities sharing most of them got the same recording.
 */
export function figures(data: unknown): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (v: unknown, path: string) => {
    if (typeof v === 'number' && Math.abs(v) >= 1000 && !(Number.isInteger(v) && v >= 1900 && v <= 2100)) out.set(path, v);
    else if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${path}.${i}`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, `${path}.${k}`);
  };
  visit(data, 'data');
  return out;
}

/** The figures two answers share (same path, same value), when they are at least two and half of either. */
export function sharedFigures(a: Map<string, number>, b: Map<string, number>): string[] {
  const same = [...a].filter(([k, v]) => b.get(k) === v).map(([k, v]) => `${k}=${v}`);
  return same.length >= 2 && same.length * 2 >= Math.min(a.size, b.size) ? same : [];
}
