import { hasZone, toBerlinIso } from '../http/time.ts';

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

/** Keys whose subtree is kept verbatim (the motorway feed's raw camelCase fields). */
export const RAW_KEYS = new Set(['raw']);

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

function normaliseValue(key: string, v: unknown): unknown {
  if (v === undefined || v === '') return null;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '') return null;
    return v;
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : toBerlinIso(v);
  if (Array.isArray(v)) return v.map((x) => normaliseValue(key, x));
  if (typeof v === 'object' && v !== null) return normaliseRecord(v as Record<string, unknown>);
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}

/** Normalise one record (recursively). Pure; returns a new object. */
export function normaliseRecord(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, rawValue] of Object.entries(input)) {
    if (RAW_KEYS.has(rawKey)) {
      out[rawKey] = rawValue ?? null;
      continue;
    }
    let key = snakeCase(rawKey);
    // An adapter that still speaks a deprecated name is lifted to the canonical one.
    if (DEPRECATED_ALIASES[key] && !(DEPRECATED_ALIASES[key] in input)) key = DEPRECATED_ALIASES[key];
    else if (DEPRECATED_ALIASES[key]) continue;
    let value = normaliseValue(key, rawValue);
    if (key === 'post_code') value = normalisePostCode(value);
    if (typeof value === 'string' && isTimestampKey(key) && /^\d{4}-\d{2}-\d{2}T/.test(value) && !hasZone(value)) {
      throw new Error(`timestamp without zone in field ${key}: ${value}`);
    }
    out[key] = value;
  }
  for (const canonical of Object.keys(out)) {
    const olds = ALIASES_OF[canonical];
    if (!olds) continue;
    for (const old of olds) out[old] = out[canonical];
  }
  return out;
}

function isTimestampKey(key: string): boolean {
  return key.endsWith('_at') || key === 'time' || key.endsWith('_time') || key === 'start' || key === 'end' || key === 'as_of';
}

export function normalise(data: unknown): unknown {
  if (data === null || data === undefined) return null;
  return normaliseValue('', data);
}
