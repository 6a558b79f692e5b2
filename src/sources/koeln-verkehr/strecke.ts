import type { FlowSegment, FlowState } from '../../core/records/roads.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/**
 * The `auslastung` codes of layer 1 in the shared vocabulary. Not verified against a recorded
 * answer or a published code list: any other code becomes state null, with the code kept in raw.
 */
export const AUSLASTUNG: Readonly<Record<number, FlowState>> = { 1: 'free', 2: 'dense', 3: 'congested' };

/** An ArcGIS REST query answer (`f=json`): features with attributes and polyline paths. */
export interface QueryAnswer {
  features?: { attributes?: Record<string, unknown> | null; geometry?: { paths?: unknown } | null }[];
  exceededTransferLimit?: boolean;
  error?: { code?: number; message?: string };
}

export interface Strecken {
  segments: FlowSegment[];
  /** The service cut the answer at its record limit. */
  truncated: boolean;
}

/** Attribute names differ in case between ArcGIS services and versions (auslastung, AUSLASTUNG). */
function lowerKeys(a: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k.toLowerCase(), v]));
}

function code(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) ? n : null;
}

/** A path as [lon, lat] pairs (outSR=4326 puts x = longitude first), or null when it is not one. */
function path(p: unknown): number[][] | null {
  if (!Array.isArray(p) || p.length === 0) return null;
  const pts = p.filter((q): q is number[] => Array.isArray(q) && typeof q[0] === 'number' && typeof q[1] === 'number').map((q) => [q[0]!, q[1]!]);
  return pts.length === p.length ? pts : null;
}

function geometryOf(paths: unknown): FlowSegment['geometry'] {
  if (!Array.isArray(paths)) return null;
  const lines = paths.map(path);
  if (lines.length === 0 || lines.some((l) => l === null)) return null;
  return lines.length === 1 ? { type: 'LineString', coordinates: lines[0]! } : { type: 'MultiLineString', coordinates: lines };
}

/** Middle vertex of the first path as the segment's point. */
function midpoint(g: FlowSegment['geometry']): { lat: number; lon: number } | null {
  if (!g) return null;
  const line = (g.type === 'LineString' ? g.coordinates : g.coordinates[0]) as number[][];
  const mid = line[Math.floor(line.length / 2)];
  return mid ? { lon: mid[0]!, lat: mid[1]! } : null;
}

/** Layer 1 "Strecke": one FlowSegment per feature. An ArcGIS error object (sent with HTTP 200) is an upstream failure. */
export function parseStrecken(answer: QueryAnswer): Strecken {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw new UpstreamError('parse', 'Köln Verkehrskalender: answer is not an object');
  if (answer.error && typeof answer.error === 'object') {
    // Our query is fixed, so even an ArcGIS 400 says the service is unwell (no status: it counts for the breaker).
    const c = typeof answer.error.code === 'number' ? answer.error.code : 'without code';
    throw new UpstreamError('status', `Köln Verkehrskalender: ArcGIS error ${c}`);
  }
  if (!Array.isArray(answer.features)) throw new UpstreamError('parse', 'Köln Verkehrskalender: features missing');
  const segments = answer.features.map((f): FlowSegment => {
    const a = f && typeof f.attributes === 'object' && f.attributes ? lowerKeys(f.attributes) : {};
    const load = code(a.auslastung);
    const geometry = geometryOf(f?.geometry?.paths);
    const at = midpoint(geometry);
    const id = a.identifier ?? a.objectid;
    return {
      id: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
      state: load === null ? null : (AUSLASTUNG[load] ?? null),
      road_class: null,
      lat: at?.lat ?? null,
      lon: at?.lon ?? null,
      observed_at: null,
      geometry,
      raw: { auslastung: a.auslastung ?? null, tendenz: a.tendenz ?? null },
    };
  });
  return { segments, truncated: answer.exceededTransferLimit === true };
}
