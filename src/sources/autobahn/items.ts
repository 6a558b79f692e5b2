import { distanceKm } from '../../cities/register.ts';
import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import type { EventType, RoadEvent, WebcamRecord } from '../../core/records/roads.ts';
import { parseNumber } from '../../core/numbers.ts';
import { z } from '../../core/schema.ts';

/**
 * One item of the Autobahn API (`/{road}/services/{service}`), parsed defensively: the feed
 * changed its format (2021: string coordinates, base64 ids, lon,lat in `extent`/`point`;
 * 2025/26: numbers, INRIX ids, lat,lon in `extent`/`point`, GeoJSON `geometry` in lon,lat).
 */
export type AutobahnItem = Record<string, unknown>;

/** A number from a number or a numeric string ("22", "6.85", "3,25"); anything else null. */
export function numberOf(v: unknown): number | null {
  return parseNumber(v, { notation: 'decimal' });
}

/** `true`/`false` as booleans or as the strings "true"/"false". */
export function flagOf(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
  }
  return null;
}

const textOf = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** Germany lies within lat 47-56 and lon 5-16, so the two never overlap: the order is read from the values. */
const isLat = (n: number) => n >= 47 && n <= 56;
const isLon = (n: number) => n >= 5 && n <= 16;

function ordered(a: number | null, b: number | null): { lat: number; lon: number } | null {
  if (a === null || b === null) return null;
  if (isLat(a) && isLon(b)) return { lat: a, lon: b };
  if (isLon(a) && isLat(b)) return { lat: b, lon: a };
  return null;
}

/** Position from `coordinate` ({lat, long}; the key is `long`, not `lon`), else from `point` ("a,b" in either order). */
export function positionOf(item: AutobahnItem): { lat: number; lon: number } | null {
  const c = item.coordinate;
  if (c && typeof c === 'object') {
    const o = c as Record<string, unknown>;
    const p = ordered(numberOf(o.lat), numberOf(o.long ?? o.lon));
    if (p) return p;
  }
  if (typeof item.point === 'string') {
    const [a, b] = item.point.split(',').map(numberOf);
    return ordered(a ?? null, b ?? null);
  }
  return null;
}

const numeric = z.union([z.number(), z.string()]).nullish();
const text = z.string().nullish();
const flag = z.union([z.boolean(), z.string().regex(/^\s*(true|false)\s*$/i, 'not true or false')]).nullish();

/**
 * The members of an item the parsers read, in both formats the feed has had (numbers as numbers or strings). Every
 * one may be missing except a position: an item that cannot be placed cannot be told near or far.
 */
export const ItemShape = z
  .looseObject({
    identifier: text,
    title: text,
    subtitle: text,
    description: z.array(z.string()).nullish(),
    coordinate: z.looseObject({ lat: numeric, long: numeric, lon: numeric }).nullish(),
    point: text,
    startTimestamp: text,
    future: flag,
    isBlocked: flag,
    delayTimeValue: numeric,
    averageSpeed: numeric,
    abnormalTrafficType: text,
    impact: z.looseObject({ maxSpeed: numeric, maxWidth: numeric }).nullish(),
    geometry: z.looseObject({ type: z.string(), coordinates: z.array(z.unknown()) }).nullish(),
    imageurl: text,
    linkurl: text,
    operator: text,
  })
  .superRefine((item, ctx) => {
    if (!positionOf(item)) ctx.addIssue({ code: 'custom', path: ['coordinate'], message: 'no position in coordinate or point' });
  });

/** The lines of `description`, trimmed, empty ones dropped (the feed pads with "" lines). */
export function linesOf(item: AutobahnItem): string[] {
  if (!Array.isArray(item.description)) return [];
  return item.description
    .filter((l): l is string => typeof l === 'string')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/**
 * "Beginn: 29.03.26 um 14:42 Uhr" (2025/26) or "Beginn: 30.08.2021 19:00" (2021): German
 * wall-clock time, returned as a zoned Europe/Berlin timestamp.
 */
export function lineTime(lines: string[], label: 'Beginn' | 'Ende'): string | null {
  const re = new RegExp(`^${label}:\\s*(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4}|\\d{2})(?:,?\\s*(?:um\\s*)?(\\d{1,2}):(\\d{2}))?`);
  for (const l of lines) {
    const m = re.exec(l);
    if (!m) continue;
    const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    const d = berlinLocalToDate(year, Number(m[2]), Number(m[1]), Number(m[4] ?? 0), Number(m[5] ?? 0));
    return Number.isNaN(d.getTime()) ? null : toBerlinIso(d);
  }
  return null;
}

/** `startTimestamp`: "2021-08-30T19:00:00.000+0200" (offset without colon) or "2026-03-29T12:42:24Z". */
export function zonedTime(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  if (!/(Z|[+-]\d{2}:\d{2})$/.test(s)) return null;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? null : toBerlinIso(ms);
}

/** A number in a line such as "- Reisezeitverlust: 22 Minuten" or "Länge: 6.38 km". */
function lineNumber(lines: string[], label: RegExp): number | null {
  for (const l of lines) {
    const m = label.exec(l);
    if (m) return numberOf(m[1]);
  }
  return null;
}

/** "A1 | Köln-Bocklemünd - Köln-Lövenich" -> road "A1" (also "A 1 | ...") and the rest. */
export function splitTitle(title: string | null): { road: string | null; rest: string | null } {
  if (!title) return { road: null, rest: null };
  const m = /^\s*([A-Z]{1,2})\s?(\d{1,4}[a-z]?)\s*\|\s*(.*)$/.exec(title);
  if (!m) return { road: null, rest: title };
  return { road: `${m[1]}${m[2]}`, rest: textOf(m[3]) };
}

function geometryOf(v: unknown): RoadEvent['geometry'] {
  if (!v || typeof v !== 'object') return null;
  const g = v as Record<string, unknown>;
  return typeof g.type === 'string' && Array.isArray(g.coordinates) ? { type: g.type, coordinates: g.coordinates } : null;
}

function impactNumber(item: AutobahnItem, key: string): number | null {
  const impact = item.impact;
  return impact && typeof impact === 'object' ? numberOf((impact as Record<string, unknown>)[key]) : null;
}

/**
 * The item's own fields, verbatim, except the geometry (given canonically beside it) and the
 * blank lines the feed puts between the paragraphs of its description.
 */
function rawOf(item: AutobahnItem): Record<string, unknown> {
  const { geometry: _geometry, ...rest } = item;
  if (Array.isArray(rest.description)) rest.description = rest.description.filter((line) => !(typeof line === 'string' && line.trim() === ''));
  return rest;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export function parseEvent(item: AutobahnItem, type: EventType, askedRoad: string, origin: { lat: number; lon: number }): RoadEvent {
  const lines = linesOf(item);
  const title = textOf(item.title);
  const pos = positionOf(item);
  const delay = numberOf(item.delayTimeValue) ?? lineNumber(lines, /Reisezeitverlust:\s*([\d.,]+)/);
  return {
    id: textOf(item.identifier),
    type,
    source: 'autobahn',
    title,
    road: splitTitle(title).road ?? askedRoad,
    direction: textOf(item.subtitle),
    description: lines,
    start: zonedTime(item.startTimestamp) ?? lineTime(lines, 'Beginn'),
    end: lineTime(lines, 'Ende'),
    future: flagOf(item.future),
    blocked: flagOf(item.isBlocked),
    delay_minutes: delay === null ? null : Math.round(delay),
    average_speed_kmh: numberOf(item.averageSpeed),
    abnormal_traffic: textOf(item.abnormalTrafficType),
    max_speed_kmh: impactNumber(item, 'maxSpeed'),
    max_width_m: impactNumber(item, 'maxWidth') ?? lineNumber(lines, /Maximale Durchfahrt?sbreite:\s*([\d.,]+)/),
    length_km: lineNumber(lines, /^Länge:\s*([\d.,]+)\s*km/),
    lat: pos?.lat ?? null,
    lon: pos?.lon ?? null,
    distance_km: pos ? round(distanceKm(origin.lat, origin.lon, pos.lat, pos.lon), 1) : null,
    geometry: geometryOf(item.geometry),
    raw: rawOf(item),
  };
}

export function parseWebcam(item: AutobahnItem, askedRoad: string, origin: { lat: number; lon: number }): WebcamRecord {
  const { road, rest } = splitTitle(textOf(item.title));
  const pos = positionOf(item);
  return {
    id: textOf(item.identifier),
    name: rest,
    road: road ?? askedRoad,
    direction: textOf(item.subtitle),
    image_url: textOf(item.imageurl),
    link_url: textOf(item.linkurl),
    operator: textOf(item.operator),
    lat: pos?.lat ?? null,
    lon: pos?.lon ?? null,
    distance_km: pos ? round(distanceKm(origin.lat, origin.lon, pos.lat, pos.lon), 1) : null,
    raw: rawOf(item),
  };
}
