import { DEPRECATED_ALIASES, RAW_KEYS } from '../core/normalise.ts';
import type { Envelope } from '../services/context.ts';

/**
 * The text rendering of a tool answer: one summary line, then the data flattened to
 * `path: value` lines (nulls and raw upstream fields left out), one line per list item, and the
 * credit. Capped, because the full answer is the structured content.
 */
const MAX_CHARS = 6000;
/**
 * Raw upstream fields add nothing to read, nor does a deprecated twin beside its canonical name (`city` beside
 * `place`); a key that only shares a deprecated name (a compare item's `city`) is read.
 */
function skipped(key: string, within: object): boolean {
  const canonical = DEPRECATED_ALIASES[key];
  return RAW_KEYS.has(key) || (canonical !== undefined && canonical in within);
}

function scalar(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function flatten(value: unknown, prefix: string, out: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) {
      if (value.length) out.push(`${prefix}: ${value.map(scalar).join(', ')}`);
      return;
    }
    value.forEach((v, i) => out.push(itemLine(v, `${prefix}[${i}]`)));
    return;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!skipped(k, value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out.push(`${prefix}: ${scalar(value)}`);
}

/** One list item on one line: its fields, nested ones by path. */
function itemLine(item: unknown, label: string): string {
  const parts: string[] = [];
  flatten(item, '', parts);
  return `${label}: ${parts.join('; ')}`;
}

function summary(label: string, env: Envelope): string {
  const m = env.meta;
  const parts = [
    `${label}${typeof m.type === 'string' ? ` (${m.type})` : ''}${typeof m.city === 'string' ? ` for ${m.city}` : ''}: source_status ${String(m.source_status ?? 'ok')}`,
  ];
  if (m.as_of) parts.push(`as of ${String(m.as_of)}`);
  const p = m.pagination as { applied: boolean; returned: number; total: number; offset: number } | undefined;
  if (p?.applied) {
    parts.push(`${p.returned} of ${p.total} items from offset ${p.offset}${p.returned < p.total ? '; pass limit "all" (or page/offset) for more' : ''}`);
  } else if (Array.isArray(env.data)) {
    parts.push(`${env.data.length} items`);
  }
  if (m.source_status === 'not_covered' && Array.isArray(m.covered_cities)) parts.push(`covered cities: ${m.covered_cities.join(', ')}`);
  if (typeof m.disabled_reason === 'string') parts.push(m.disabled_reason);
  return `${parts.join('; ')}.`;
}

/** A source's credit with its licence, the licence once (many credits name it already: "DB InfraGO AG, CC BY 4.0"). */
function creditLine(text: unknown, license: unknown): string {
  const t = typeof text === 'string' ? text : '';
  if (typeof license !== 'string' || !license || t.toLowerCase().includes(license.toLowerCase())) return t;
  return t ? `${t}, ${license}` : license;
}

function credit(attribution: unknown): string | null {
  const list = Array.isArray(attribution) ? attribution : attribution ? [attribution] : [];
  const names = list.map((a: Record<string, unknown> | null) => (a && typeof a === 'object' ? creditLine(a.text ?? a.source, a.license) : '')).filter(Boolean);
  return names.length ? `Source: ${names.join('; ')}` : null;
}

export function renderText(label: string, env: Envelope): string {
  const lines = [summary(label, env)];
  if (Array.isArray(env.data)) env.data.forEach((item, i) => lines.push(itemLine(item, String(i + 1))));
  else flatten(env.data, '', lines);
  const c = credit(env.attribution);
  if (c) lines.push(c);
  let text = lines.join('\n');
  if (text.length > MAX_CHARS) text = `${text.slice(0, MAX_CHARS)}\n… (${text.length - MAX_CHARS} more characters in the structured content)`;
  return text;
}
