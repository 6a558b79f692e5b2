import { hasZone, toBerlinIso } from './time.ts';

/**
 * The spec's naming convention, applied in one place to every record an adapter returns:
 * snake_case English keys, null for missing values, five-character post codes, zoned
 * timestamps, and the deprecated names (unified 2026-07-25) next to their canonical twins.
 */

/** Deprecated name -> canonical name. A deprecated key is only ever emitted beside its twin. */
export const DEPRECATED_ALIASES: Readonly<Record<string, string>> = {
  plz: 'post_code',
  zip: 'post_code',
  strasse: 'street',
  hausnummer: 'house_number',
  ort: 'place',
  city: 'place',
  bezeichnung: 'name',
  beginn: 'start',
  ende: 'end',
  art: 'type',
  dist_km: 'distance_km',
  leistung_kw: 'power_kw',
  einheit_typ: 'unit_type',
};

const ALIASES_OF: Record<string, string[]> = {};
for (const [old, canonical] of Object.entries(DEPRECATED_ALIASES)) (ALIASES_OF[canonical] ??= []).push(old);

/**
 * Keys whose subtree is kept verbatim: the feeds' raw fields (the motorway feed's camelCase
 * names) and GeoJSON geometries, whose `type` member is GeoJSON's, not the vocabulary's `type`
 * (no deprecated `art` twin inside a geometry).
 */
export const RAW_KEYS = new Set(['raw', 'geometry']);

export function snakeCase(key: string): string {
  if (!/[A-Z]/.test(key)) return key;
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

export function normalisePostCode(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  const s = String(v).trim();
  if (/^\d{1,5}$/.test(s)) return s.padStart(5, '0');
  return s === '' ? null : s;
}

function normaliseValue(v: unknown): unknown {
  if (v === undefined || v === '') return null;
  if (typeof v === 'string') return isBlank(v) ? null : v;
  if (typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? null : v;
  if (v === null) return null;
  if (Array.isArray(v)) {
    // Copied only from the first element that changes: clean lists come back as they are.
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = normaliseValue(v[i]);
      if (out === null && x !== v[i]) out = v.slice(0, i);
      if (out !== null) out.push(x);
    }
    return out ?? v;
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : toBerlinIso(v);
  return normaliseRecord(v as Record<string, unknown>);
}

function isBlank(s: string): boolean {
  // Only strings that start or end with white space can be blank; most values skip trim().
  const first = s.charCodeAt(0),
    last = s.charCodeAt(s.length - 1);
  return (first <= 32 || first === 160 || last <= 32 || last === 160) && s.trim() === '';
}

/** What to do with one input key, worked out once per distinct key (records repeat their keys). */
interface KeyPlan {
  raw: boolean;
  key: string;
  /** Set when the key is a deprecated name: its canonical twin. */
  liftTo: string | undefined;
  timestamp: boolean;
  postCode: boolean;
  aliases: string[] | undefined;
}

const plans = new Map<string, KeyPlan>();
function planFor(rawKey: string): KeyPlan {
  let p = plans.get(rawKey);
  if (p) return p;
  const key = snakeCase(rawKey);
  p = {
    raw: RAW_KEYS.has(rawKey),
    key,
    liftTo: DEPRECATED_ALIASES[key],
    timestamp: isTimestampKey(key),
    postCode: key === 'post_code',
    aliases: ALIASES_OF[key],
  };
  if (plans.size < 10_000) plans.set(rawKey, p);
  return p;
}

/** The zoned form every adapter emits, in one regex; anything else is checked in full. */
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

function looksLikeNaiveTimestamp(v: string): boolean {
  if (v.length < 16 || v.charCodeAt(10) !== 84 /* T */) return false;
  if (ZONED.test(v)) return false;
  return /^\d{4}-\d{2}-\d{2}T/.test(v) && !hasZone(v);
}

/**
 * Normalise one record (recursively). Never mutates its input; a record that already follows
 * the conventions, its deprecated twins included (what our own adapters build, and every
 * answer this function gave), is returned as it is, so a clean answer costs no copy.
 */
export function normaliseRecord(input: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  let withAliases: KeyPlan[] | null = null;
  for (const rawKey in input) {
    if (!Object.prototype.hasOwnProperty.call(input, rawKey)) continue;
    const plan = planFor(rawKey);
    const rawValue = input[rawKey];
    let key = rawKey,
      value: unknown,
      target = plan;
    if (plan.raw) value = rawValue ?? null;
    else {
      key = plan.key;
      if (plan.liftTo) {
        // A deprecated name beside its canonical twin is (re)written from the twin below; alone it is lifted to the canonical name.
        if (plan.liftTo in input) continue;
        key = plan.liftTo;
        target = planFor(key);
      }
      value = normaliseValue(rawValue);
      if (target.postCode) value = normalisePostCode(value);
      if (target.timestamp && typeof value === 'string' && looksLikeNaiveTimestamp(value)) {
        throw new Error(`timestamp without zone in field ${key}: ${value}`);
      }
      if (target.aliases) (withAliases ??= []).push(target);
    }
    if (out === null) {
      if (key === rawKey && value === rawValue) continue;
      out = copyBefore(input, rawKey);
    }
    out[key] = value;
  }
  if (withAliases) {
    for (const t of withAliases) {
      const value = (out ?? input)[t.key];
      for (const old of t.aliases!) {
        if (out === null && Object.prototype.hasOwnProperty.call(input, old) && input[old] === value) continue;
        out ??= copyBefore(input, null);
        out[old] = value;
      }
    }
  }
  return out ?? input;
}

/** The own keys of `input` before `stop`, which came through unchanged. */
function copyBefore(input: Record<string, unknown>, stop: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in input) {
    if (k === stop) break;
    if (Object.prototype.hasOwnProperty.call(input, k)) out[k] = input[k];
  }
  return out;
}

function isTimestampKey(key: string): boolean {
  return key.endsWith('_at') || key === 'time' || key.endsWith('_time') || key === 'start' || key === 'end' || key === 'as_of';
}

export function normalise(data: unknown): unknown {
  if (data === null || data === undefined) return null;
  return normaliseValue(data);
}
