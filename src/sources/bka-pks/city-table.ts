import { delimitedRows } from '../../core/delimited.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { CrimeStatsRecord } from '../../core/records/crime.ts';
import { parseNumber } from '../../core/numbers.ts';

type Format = 'en' | 'de';

/**
 * BKA CSVs of recent years write numbers the English way (`5,940,667`, `7,042.10`); older ones
 * and other tables the German way. The file's format is read from a value that shows both
 * separators; German is assumed only when such a value proves it.
 */
export function numberFormat(values: string[]): Format {
  for (const v of values) {
    if (/\d\.\d{3},\d/.test(v)) return 'de';
    if (/\d,\d{3}\.\d/.test(v)) return 'en';
  }
  return 'en';
}

const COLUMNS = {
  key: /^Schl(ü|ue)ssel$/i,
  offence: /^Straftat$/i,
  ags: /^Gemeindeschl(ü|ue)ssel$/i,
  city: /^Stadt$/i,
  // "erfasste Fälle" or "Anzahl erfasste Fälle", depending on the year
  cases: /^(Anzahl )?erfasste F(ä|ae)lle$/i,
  hz: /^(HZ|H(ä|ae)ufigkeitszahl)/i,
  solved: /^(AQ|Aufkl(ä|ae)rungsquote)/i,
  suspects: /^Tatverd(ä|ae)chtige insgesamt$/i,
} as const;

type Column = keyof typeof COLUMNS;

/** The PKS city table ("Grundtabelle Städte, Fälle mit HZ"), grouped by the 8-digit municipality key. */
export function parseCityTable(body: string, reportYear: number): Map<string, CrimeStatsRecord> {
  const rows = delimitedRows(body, { label: 'PKS city table' });
  let col: Partial<Record<Column, number>> | null = null;
  let at = -1;
  for (const [i, cells] of rows.slice(0, 40).entries()) {
    if (col) break;
    const found: Partial<Record<Column, number>> = {};
    for (const [name, re] of Object.entries(COLUMNS) as [Column, RegExp][]) {
      const j = cells.findIndex((c) => re.test(c));
      if (j >= 0) found[name] = j;
    }
    if (found.key !== undefined && found.ags !== undefined && found.cases !== undefined) {
      col = found;
      at = i;
    }
  }
  if (!col) throw new UpstreamError('parse', 'PKS city table without its header row (Schlüssel;Straftat;Gemeindeschlüssel;…)');
  const data = rows.slice(at + 1);
  const format = numberFormat(data.flat());
  const cell = (cells: string[], c: Column) => (col![c] === undefined ? undefined : cells[col![c]!]);
  const out = new Map<string, CrimeStatsRecord>();
  for (const cells of data) {
    const ags = (cell(cells, 'ags') ?? '').replace(/\D/g, '');
    const key = cell(cells, 'key') ?? '';
    if (!/^\d{8}$/.test(ags) || key === '') continue;
    let rec = out.get(ags);
    if (!rec) out.set(ags, (rec = { report_year: reportYear, city_key: ags, city_name: cell(cells, 'city') || null, total: null, offences: [] }));
    const figures = {
      cases: parseNumber(cell(cells, 'cases'), { notation: format }),
      per_100k_inhabitants: parseNumber(cell(cells, 'hz'), { notation: format }),
      solved_pct: parseNumber(cell(cells, 'solved'), { notation: format }),
      suspects: parseNumber(cell(cells, 'suspects'), { notation: format }),
    };
    if (/^-+$/.test(key)) rec.total = figures;
    rec.offences.push({ key, offence: cell(cells, 'offence') || null, ...figures });
  }
  if (out.size === 0) throw new UpstreamError('parse', 'PKS city table has no city row');
  return out;
}

/** `Version 1.0` or the like in the table's preamble, for the required credit line. */
export function tableVersion(body: string): string | null {
  return /Version[:\s]*([0-9][0-9.]*)/i.exec(body.split('\n', 12).join('\n'))?.[1] ?? null;
}
