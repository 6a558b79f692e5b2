import { delimitedRows, findHeader } from '../../core/delimited.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** The official municipality ↔ constituency assignment, compact. */
export interface Assignment {
  /** AGS (8 digits) → constituency numbers. */
  byAgs: Record<string, number[]>;
  /** Constituency number → how many municipalities it covers. */
  municipalities: Record<string, number>;
}

const REQUIRED = ['Wahlkreis-Nr', 'RGS_Land', 'RGS_RegBez', 'RGS_Kreis', 'RGS_Gemeinde'];

/**
 * wkr_gemeinden CSV: a preamble, then one row per municipality (or municipality part, with
 * `Gemeindeteil`) and constituency. The AGS is Land(2) + RegBez(1) + Kreis(2) + Gemeinde(3);
 * the Gemeindeverband segment is left out because it is not part of the AGS.
 */
export function parseAssignment(body: string): Assignment {
  const rows = delimitedRows(body, { label: 'constituency assignment' });
  const header = findHeader(rows, REQUIRED);
  if (!header) throw new UpstreamError('parse', 'constituency assignment without its header row (Wahlkreis-Nr;…;RGS_Gemeinde)');
  const { col } = header;
  const get = (c: string[], name: string) => (c[col.get(name) ?? -1] ?? '').trim();
  const byAgs = new Map<string, Set<number>>();
  const members = new Map<number, Set<string>>();
  for (const c of rows.slice(header.at + 1)) {
    const nr = Number(get(c, 'Wahlkreis-Nr'));
    const parts = [get(c, 'RGS_Land').padStart(2, '0'), get(c, 'RGS_RegBez'), get(c, 'RGS_Kreis').padStart(2, '0'), get(c, 'RGS_Gemeinde').padStart(3, '0')];
    const ags = parts.join('');
    if (!Number.isInteger(nr) || nr <= 0 || !/^\d{8}$/.test(ags)) continue;
    if (!byAgs.has(ags)) byAgs.set(ags, new Set());
    byAgs.get(ags)!.add(nr);
    if (!members.has(nr)) members.set(nr, new Set());
    members.get(nr)!.add(ags);
  }
  if (byAgs.size === 0) throw new UpstreamError('parse', 'constituency assignment without municipality rows');
  return {
    byAgs: Object.fromEntries([...byAgs].map(([k, v]) => [k, [...v].sort((a, b) => a - b)])),
    municipalities: Object.fromEntries([...members].map(([k, v]) => [String(k), v.size])),
  };
}
