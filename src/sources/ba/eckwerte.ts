import { UpstreamError } from '../../core/upstream-error.ts';
import { delimitedRows } from '../../core/delimited.ts';
import { parseNumber } from '../../core/numbers.ts';

const MONTHS: Record<string, string> = {
  januar: '01',
  februar: '02',
  märz: '03',
  maerz: '03',
  april: '04',
  mai: '05',
  juni: '06',
  juli: '07',
  august: '08',
  september: '09',
  oktober: '10',
  november: '11',
  dezember: '12',
};

/** "Februar 2026" -> "2026-02". */
export function monthOf(label: string | undefined): string | null {
  const m = /^\s*(\S+)\s+(\d{4})\s*$/.exec(label ?? '');
  const mo = m?.[1] === undefined ? undefined : MONTHS[m[1].toLowerCase()];
  return m && mo ? `${m[2]}-${mo}` : null;
}

/** The parts every `tableFetch/csv/Eckwerte*` answer has: preamble cells, header row, labelled rows. */
export interface EckwerteTable {
  preamble: string[][];
  header: string[];
  rows: string[][];
  /** Value of the `Kreis:`/`Land:` preamble line. */
  region: string | null;
}

/**
 * Splits a BA Eckwerte CSV: preamble lines (`Kreis:; …`), a header row starting "Ausgewählte
 * Merkmale", labelled rows up to the © footer.
 */
export function eckwerteTable(csv: string): EckwerteTable {
  const lines = delimitedRows(csv, { label: 'BA table' });
  const h = lines.findIndex((cells) => (cells[0] ?? '').startsWith('Ausgewählte Merkmale'));
  if (h < 0) throw new UpstreamError('parse', 'BA table without the "Ausgewählte Merkmale" header');
  const header = lines[h] ?? [];
  const rows: string[][] = [];
  for (const cells of lines.slice(h + 1)) {
    if ((cells[0] ?? '').startsWith('©') || cells.length < 2) break;
    rows.push(cells);
  }
  const preamble = lines.slice(0, h);
  const region = preamble.find((c) => /^(Kreis|Land|Bundesland|Region)[^:]*:$/.test(c[0] ?? ''))?.[1] || null;
  return { preamble, header, rows, region };
}

/**
 * The `tableFetch/csv/EckwerteTabelle*` answer. Labels repeat (`im Rechtskreis SGB II` once as
 * count, once as rate), so rows are read by position relative to the count and rate rows.
 */
export function parseEckwerte(csv: string) {
  const { header, rows: all, region } = eckwerteTable(csv);
  // The unemployment table has a value per period and two change columns.
  const rows = all.filter((r) => r.length >= 4);
  const countIdx = rows.findIndex((r) => r[0] === 'Arbeitslose insgesamt');
  const rateIdx = rows.findIndex((r) => (r[0] ?? '').startsWith('Arbeitslosenquote'));
  const rateBasis = rows[rateIdx]?.[0];
  if (countIdx < 0 || rateBasis === undefined) throw new UpstreamError('parse', 'BA table without unemployed count or rate rows');
  const col = (r: string[] | undefined, i: number) => parseNumber(r?.[i]);
  const snapshot = (i: number) => ({
    month: monthOf(header[i]),
    unemployed: col(rows[countIdx], i),
    unemployment_rate_pct: col(rows[rateIdx], i),
  });
  const labelled = (base: number, label: string) => {
    const r = rows[base + 1]?.[0] === label ? rows[base + 1] : rows[base + 2]?.[0] === label ? rows[base + 2] : undefined;
    return r;
  };
  const sgb3 = labelled(countIdx, 'im Rechtskreis SGB III');
  const sgb2 = labelled(countIdx, 'im Rechtskreis SGB II');
  const sgb3Rate = labelled(rateIdx, 'im Rechtskreis SGB III');
  const sgb2Rate = labelled(rateIdx, 'im Rechtskreis SGB II');
  const current = snapshot(1);
  if (!current.month) throw new UpstreamError('parse', `BA table header has no reference month: ${header[1] ?? ''}`);
  return {
    region_name: region,
    reference_month: current.month,
    unemployed: current.unemployed,
    unemployment_rate_pct: current.unemployment_rate_pct,
    rate_basis: rateBasis,
    unemployed_sgb3: col(sgb3, 1),
    unemployed_sgb2: col(sgb2, 1),
    unemployment_rate_sgb3_pct: col(sgb3Rate, 1),
    unemployment_rate_sgb2_pct: col(sgb2Rate, 1),
    previous_month: snapshot(2),
    year_ago: snapshot(3),
    change_year_on_year: col(rows[countIdx], 4),
    change_year_on_year_pct: col(rows[countIdx], 5),
  };
}

export interface BaKreis {
  key: string;
  name: string;
}

/**
 * `DR-LZR-persistListenfelderJSON.js` is `var persistListenfelderJSON = {…};`; one of its lists
 * holds `{formValues: {Filtername: "Kreis", BA_SCHL, DESC}}` items whose BA_SCHL starts with
 * the 5-digit Kreis key and whose DESC is the name the table API takes as `Kreis=`.
 */
export function parseKreisList(js: string): BaKreis[] {
  const text = js
    .trim()
    .replace(/^var\s+\w+\s*=\s*/, '')
    .replace(/;\s*$/, '');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UpstreamError('parse', 'BA region list is not JSON after the assignment');
  }
  if (!data || typeof data !== 'object') throw new UpstreamError('parse', 'BA region list is not an object');
  for (const v of Object.values(data as Record<string, unknown>)) {
    if (!Array.isArray(v) || v[0]?.formValues?.Filtername !== 'Kreis') continue;
    return v
      .map((item) => item?.formValues ?? {})
      .filter((fv) => /^\d{5}/.test(String(fv.BA_SCHL ?? '')) && typeof fv.DESC === 'string')
      .map((fv) => ({ key: String(fv.BA_SCHL).slice(0, 5), name: String(fv.DESC) }));
  }
  throw new UpstreamError('parse', 'BA region list has no Kreis list');
}
