import { XMLParser } from 'fast-xml-parser';
import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import type { BorisState } from './states.ts';
import { parseNumber } from '../../core/numbers.ts';

/** One standard land value zone as the summary needs it. */
export interface Zone {
  value: number;
  usage: string | null;
  development: string | null;
  /** Reference date, ISO (yyyy-mm-dd). */
  date: string | null;
}

export interface ZonePage {
  zones: Zone[];
  /** Features on the page (with or without a usable value): the paging step. */
  features: number;
  /** numberMatched of the service, when it says. */
  matched: number | null;
}

type Node = Record<string, unknown>;

function scalar(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  // GML writes `<bodenrichtwert uom="EUR/m2">150</bodenrichtwert>`: text beside attributes.
  if (v && typeof v === 'object' && '#text' in v) return scalar((v as Node)['#text']);
  return null;
}

/** A positive amount in EUR/m², decimal comma accepted. */
function amount(v: unknown): number | null {
  const n = parseNumber(scalar(v), { notation: 'decimal' });
  return n !== null && n > 0 ? n : null;
}

/** yyyy-mm-dd from ISO dates (with or without time/zone) or German dd.mm.yyyy. */
function isoDate(v: unknown): string | null {
  const s = scalar(v);
  if (!s) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const de = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(s);
  return de ? `${de[3]}-${de[2]}-${de[1]}` : null;
}

function count(v: unknown): number | null {
  const s = scalar(v);
  return s && /^\d+$/.test(s) ? Number(s) : null;
}

function zoneOf(get: (field: string) => unknown, st: BorisState): Zone | null {
  const value = amount(get(st.valueField));
  if (value === null) return null;
  return {
    value,
    usage: st.usage ? scalar(get(st.usage.field)) : null,
    development: st.development ? scalar(get(st.development.field)) : null,
    date: st.dateField ? isoDate(get(st.dateField)) : null,
  };
}

/** An XML answer to a JSON request is the service's ExceptionReport (or an error page). */
function refuseXml(body: string): void {
  if (/^\s*</.test(body)) {
    const exception = /ExceptionReport|ServiceException/.test(body.slice(0, 2000));
    throw new UpstreamError('parse', exception ? 'the BORIS WFS answered an ExceptionReport' : 'the BORIS WFS answered markup instead of JSON');
  }
}

/** A GeoJSON page: zones are read from the features' properties (by the state's field names). */
const GeoJsonPageShape = z.looseObject({
  type: z.literal('FeatureCollection'),
  features: z.array(z.looseObject({ properties: z.record(z.string(), z.unknown()).nullish() })),
});

export function parseGeoJsonPage(body: string, st: BorisState): ZonePage {
  refuseXml(body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new UpstreamError('parse', 'the BORIS WFS answered unparseable JSON');
  }
  const doc = shaped(GeoJsonPageShape, parsed, 'BORIS WFS GeoJSON');
  const features = doc.features;
  const zones = features.map((f) => zoneOf((k) => f.properties?.[k], st)).filter((zone): zone is Zone => zone !== null);
  return { zones, features: features.length, matched: count(doc.numberMatched) ?? count(doc.totalFeatures) };
}

/** The first value under `key` anywhere below `node` (GML nests usage in BR_Nutzung and the like). */
function find(node: unknown, key: string): unknown {
  if (!node || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (const n of node) {
      const hit = find(n, key);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  const o = node as Node;
  if (key in o) return Array.isArray(o[key]) ? (o[key] as unknown[])[0] : o[key];
  for (const [k, v] of Object.entries(o)) {
    if (k === '#text' || typeof v !== 'object') continue;
    const hit = find(v, key);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Every element named one of `names` below `node`, not descending into a found one. */
function collect(node: unknown, names: ReadonlySet<string>, out: Node[]): Node[] {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const n of node) collect(n, names, out);
    return out;
  }
  for (const [k, v] of Object.entries(node as Node)) {
    if (names.has(k)) for (const f of [v].flat()) out.push((f && typeof f === 'object' ? f : {}) as Node);
    else if (typeof v === 'object') collect(v, names, out);
  }
  return out;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
});

export function parseGmlPage(body: string, st: BorisState): ZonePage {
  // No DTD is ever needed here; one could only expand entities (billion laughs) or reach out.
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) throw new UpstreamError('parse', 'BORIS GML with a DOCTYPE/ENTITY declaration refused');
  let doc: Node;
  try {
    doc = parser.parse(body) as Node;
  } catch {
    throw new UpstreamError('parse', 'the BORIS WFS answered unparseable XML');
  }
  if ('ExceptionReport' in doc || 'ServiceExceptionReport' in doc) throw new UpstreamError('parse', 'the BORIS WFS answered an ExceptionReport');
  const root = doc.FeatureCollection as Node | undefined;
  if (!root || typeof root !== 'object') throw new UpstreamError('parse', 'the BORIS WFS answer is not a WFS FeatureCollection');
  const features = collect(root, new Set(st.featureNames ?? []), []);
  const zones = features.map((f) => zoneOf((k) => find(f, k), st)).filter((zone): zone is Zone => zone !== null);
  return { zones, features: features.length, matched: count(root.numberMatched) };
}
