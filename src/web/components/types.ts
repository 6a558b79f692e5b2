/**
 * What the browser components read: the API's own answers (the envelope, its GeoJSON form, a
 * history answer), typed only as far as the components use them. Shared by the explorer page and
 * the MCP Apps UIs, which hand the components the same answers a tool result carries.
 */

export interface Attribution {
  source?: string;
  text?: string;
  license?: string;
  license_url?: string;
}

export interface AnswerMeta {
  type?: string;
  city?: string;
  source_status?: string;
  note?: string;
  reason?: string;
  as_of?: string;
  fetched_at?: string;
  cache_status?: string;
  pagination?: { total?: number | null; returned?: number };
  [k: string]: unknown;
}

/** The `{data, meta, attribution}` envelope of every data answer. */
export interface Envelope {
  data: unknown;
  meta: AnswerMeta;
  attribution: Attribution | null;
}

export interface Geometry {
  type: string;
  coordinates: unknown;
}

export interface Feature {
  type: 'Feature';
  geometry: Geometry | null;
  properties: Record<string, unknown> | null;
}

/** A GeoJSON answer (`?format=geojson`): a FeatureCollection carrying the envelope's meta and attribution. */
export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
  meta?: AnswerMeta;
  attribution?: Attribution | null;
}

/** A history answer: points (`as_of`, `value`) or, with `every`, buckets (`t`, `min`, `mean`, `max`), one row per field. */
export interface HistoryAnswer {
  data: { field: string; as_of?: string; t?: string; value?: number | null; mean?: number | null }[];
  meta: AnswerMeta & {
    every?: string | null;
    fields?: { name: string; unit: string }[];
    series?: { field: string; unit: string; first?: string | null; last?: string | null; points?: number }[];
  };
}

/** A problem document (RFC 9457 with the service's `code` and `hint`). */
export interface Problem {
  status?: number;
  code?: string;
  detail?: string;
  hint?: string;
}

/** Text into an element without ever parsing it as HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** A value as one short line of text (objects as JSON, cut). */
export function shortText(v: unknown, max = 120): string {
  if (v === null || v === undefined) return '–';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The attribution line of an answer: source, text and licence. */
export function attributionText(a: Attribution | null | undefined): string {
  if (!a) return '';
  return [a.text ?? a.source, a.license].filter(Boolean).join(' · ');
}
