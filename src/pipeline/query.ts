import type { ParamDecl } from '../core/params.ts';

/**
 * Free text from the query in one canonical form before it is validated, sent upstream or made
 * part of a cache key: Unicode NFC, trimmed, inner whitespace runs as one space.
 */
export function normaliseQuery(query: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const k of Object.keys(query)) {
    const v = query[k];
    if (typeof v !== 'string') continue;
    const n = v.normalize('NFC').trim().replace(/\s+/g, ' ');
    if (n !== v) (out ??= { ...query })[k] = n;
  }
  return out ?? query;
}

/**
 * The parameters as the cache key sees them: free text (a string without a fixed set of values:
 * a stop name, a search term) case-folded, so `Hbf`, `hbf` and `HBF` share one entry and one
 * upstream call. The upstreams match these names without regard to case.
 */
export function keyParams(decls: readonly ParamDecl[], params: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const d of decls) {
    const v = params[d.name];
    if (d.type !== 'string' || d.enum || typeof v !== 'string') continue;
    const folded = v.toLocaleLowerCase('de');
    if (folded !== v) (out ??= { ...params })[d.name] = folded;
  }
  return out ?? params;
}
