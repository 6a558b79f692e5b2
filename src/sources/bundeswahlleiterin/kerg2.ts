import { delimitedRows, findHeader } from '../../core/delimited.ts';
import { parseNumber } from '../../core/numbers.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** One constituency of kerg2.csv, compact (cached as JSON for all constituencies). */
export interface ConstituencyResult {
  name: string | null;
  eligible_voters: number | null;
  voters: number | null;
  valid_second_votes: number | null;
  second_votes: { party: string; votes: number | null; share_pct: number | null }[];
}

export interface ElectionResults {
  election: string | null;
  election_date: string | null;
  result_status: string | null;
  /** By constituency number (as text, JSON keys). */
  constituencies: Record<string, ConstituencyResult>;
}

const ELECTIONS: Record<string, string> = { BT: 'Bundestagswahl', EU: 'Europawahl' };
const REQUIRED = ['Wahlart', 'Wahltag', 'Gebietsart', 'Gebietsnummer', 'Gebietsname', 'Gruppenart', 'Gruppenname', 'Stimme', 'Anzahl', 'Prozent'];

/** `26.09.2021` → `2021-09-26`. */
function isoDate(de: string | undefined): string | null {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(de ?? '');
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
}

/**
 * kerg2.csv (long format): a preamble (copyright, licence, `Status:;Endgültig`, `Stand:`),
 * then one row per area × group × vote. Only constituency rows are kept. `Anzahl` is plain
 * digits, `Prozent` has a decimal comma; a party that did not stand has both empty.
 */
export function parseKerg2(body: string): ElectionResults {
  const rows = delimitedRows(body, { label: 'kerg2.csv' });
  const header = findHeader(rows, REQUIRED);
  if (!header) throw new UpstreamError('parse', 'kerg2.csv without its header row (Wahlart;Wahltag;Gebietsart;…)');
  const { col } = header;
  const cell = (cells: string[], name: string) => cells[col.get(name) ?? -1];
  const status = rows.slice(0, header.at).find((c) => c[0] === 'Status:');
  const out: ElectionResults = { election: null, election_date: null, result_status: status?.[1] || null, constituencies: {} };
  for (const c of rows.slice(header.at + 1)) {
    if (cell(c, 'Gebietsart') !== 'Wahlkreis') continue;
    const nr = String(Number(cell(c, 'Gebietsnummer')));
    if (nr === 'NaN') continue;
    const kind = cell(c, 'Wahlart');
    out.election ??= (kind === undefined ? undefined : ELECTIONS[kind]) ?? kind ?? null;
    out.election_date ??= isoDate(cell(c, 'Wahltag'));
    const k = (out.constituencies[nr] ??= {
      name: cell(c, 'Gebietsname') || null,
      eligible_voters: null,
      voters: null,
      valid_second_votes: null,
      second_votes: [],
    });
    const group = cell(c, 'Gruppenname');
    const vote = cell(c, 'Stimme');
    const count = parseNumber(cell(c, 'Anzahl'), { notation: 'decimal' });
    if (cell(c, 'Gruppenart') === 'System-Gruppe') {
      if (group === 'Wahlberechtigte') k.eligible_voters = count;
      else if (group === 'Wählende') k.voters = count;
      else if (group === 'Gültige' && vote === '2') k.valid_second_votes = count;
    } else if (vote === '2' && count !== null && group !== undefined) {
      k.second_votes.push({ party: group, votes: count, share_pct: parseNumber(cell(c, 'Prozent'), { notation: 'decimal' }) });
    }
  }
  if (Object.keys(out.constituencies).length === 0) throw new UpstreamError('parse', 'kerg2.csv has no constituency rows');
  return out;
}
