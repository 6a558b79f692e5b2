import type { TreeRecord } from '../../core/records/places.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import type { TreeWfs } from './cities.ts';
import { parseNumber } from '../../core/numbers.ts';

/** WFS 2.0 GetFeature as GeoJSON (GeoServer, deegree and ArcGIS write the same envelope, with or without numberMatched). */
export interface WfsGeoJson {
  type?: string;
  numberMatched?: number | string;
  totalFeatures?: number | string;
  features?: { id?: string | number; geometry?: { type?: string; coordinates?: unknown } | null; properties?: Record<string, unknown> | null }[];
}

function text(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** Numbers as numbers or strings, German decimal comma accepted. */
function number(v: unknown): number | null {
  return parseNumber(typeof v === 'number' ? v : text(v), { notation: 'decimal' });
}

/** A size (height, crown); cadastres write 0 where nothing was measured (Berlin's GeoServer answer does). */
function measure(v: unknown): number | null {
  const n = number(v);
  return n !== null && n > 0 ? n : null;
}

function year(v: unknown, now: Date): number | null {
  const n = number(v);
  return n !== null && Number.isInteger(n) && n >= 1600 && n <= now.getFullYear() ? n : null;
}

/**
 * The tree's point. GeoJSON is lon/lat, but some services answer EPSG:4326 requests lat/lon;
 * in Germany latitude (47-55) and longitude (5-16) cannot be confused, so the order is read off.
 */
function point(geometry: { type?: string; coordinates?: unknown } | null | undefined): { lat: number | null; lon: number | null } {
  let c = geometry?.coordinates;
  if (geometry?.type === 'MultiPoint' && Array.isArray(c)) c = c[0];
  if (!Array.isArray(c) || typeof c[0] !== 'number' || typeof c[1] !== 'number') return { lat: null, lon: null };
  const [a, b] = c as [number, number];
  if (a > 40 && b < 20) return { lat: a, lon: b };
  if (b > 40 && a < 20) return { lat: b, lon: a };
  return { lat: null, lon: null };
}

export function parseTree(f: NonNullable<WfsGeoJson['features']>[number], wfs: TreeWfs, now: Date): TreeRecord {
  const p = f.properties ?? {};
  const field = (name: string | null) => (name ? p[name] : undefined);
  const pos = point(f.geometry);
  return {
    id: text(f.id),
    species_de: text(field(wfs.fields.species_de)),
    species_botanical: text(field(wfs.fields.species_botanical)),
    genus_de: text(field(wfs.fields.genus_de)),
    planting_year: year(field(wfs.fields.planting_year), now),
    height_m: measure(field(wfs.fields.height_m)),
    crown_diameter_m: measure(field(wfs.fields.crown_diameter_m)),
    street: text(field(wfs.fields.street)),
    district: text(field(wfs.fields.district)),
    lat: pos.lat,
    lon: pos.lon,
  };
}

/** The envelope of a page; each tree's members are read where its record is built. */
const PageShape = z.looseObject({ type: z.literal('FeatureCollection'), features: z.array(z.unknown()) });

export function parseTreePage(body: WfsGeoJson, wfs: TreeWfs, now: Date): { total: number | null; trees: TreeRecord[] } {
  shaped(PageShape, body, 'tree WFS GeoJSON');
  // PageShape holds `features` as an array.
  const total = number(body.numberMatched) ?? number(body.totalFeatures);
  return { total: total !== null && Number.isInteger(total) ? total : null, trees: body.features!.filter(Boolean).map((f) => parseTree(f, wfs, now)) };
}

/** `numberMatched` of a `resultType=hits` answer (WFS 2.0 XML), for services whose GeoJSON leaves it out; `unknown` (deegree) is null. */
export function parseHits(xml: Record<string, unknown>): number | null {
  const root = Object.entries(xml).find(([k]) => /FeatureCollection$/.test(k))?.[1] as Record<string, unknown> | undefined;
  const n = number(root?.numberMatched);
  return n !== null && Number.isInteger(n) ? n : null;
}
