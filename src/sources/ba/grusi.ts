import { UpstreamError } from '../../core/upstream-error.ts';
import { eckwerteTable, monthOf } from './eckwerte.ts';
import { parseNumber } from '../../core/numbers.ts';

/**
 * Row labels of the basic income support (SGB II) figures. Not seen in a recorded answer: they
 * are the BA's published terms for the Grundsicherung statistics (research §3 documents only the
 * table family), so every row is also passed on verbatim in `figures` and meta says so.
 */
export const GRUSI_LABELS = {
  benefit_communities: /^Bedarfsgemeinschaften\b/i,
  recipients: /^Regelleistungsberechtigte\b/i,
  employable_recipients: /^erwerbsfähige Leistungsberechtigte\b/i,
  non_employable_recipients: /^nicht erwerbsfähige Leistungsberechtigte\b/i,
} as const;

type Named = Record<keyof typeof GRUSI_LABELS, number | null>;

export interface GrusiFigures extends Named {
  region_name: string | null;
  reference_month: string;
  /** Every labelled row of the reference month as published. */
  figures: { label: string; value: number | null }[];
  /** Named values per month, oldest first. */
  series: ({ month: string } & Named)[];
  /** True when no row carried one of GRUSI_LABELS. */
  labels_unmatched: boolean;
}

function named(labels: string[], values: (number | null)[]): Named {
  const pick = (re: RegExp) => {
    const i = labels.findIndex((l) => re.test(l));
    return i < 0 ? null : (values[i] ?? null);
  };
  return {
    benefit_communities: pick(GRUSI_LABELS.benefit_communities),
    recipients: pick(GRUSI_LABELS.recipients),
    employable_recipients: pick(GRUSI_LABELS.employable_recipients),
    non_employable_recipients: pick(GRUSI_LABELS.non_employable_recipients),
  };
}

/**
 * `tableFetch/csv/EckwerteZeitreiheGrusi`: the Eckwerte layout (preamble, "Ausgewählte
 * Merkmale" header, labelled rows, © footer). Whether the months run across the header (as in
 * EckwerteTabelle*) or down the first column is not documented, so both are read: the side whose
 * cells are month names holds the periods.
 */
export function parseGrusi(csv: string): GrusiFigures {
  const { header, rows, region } = eckwerteTable(csv);
  let labels: string[];
  let periods: { month: string; values: (number | null)[] }[];
  const headerMonths = header.slice(1).map(monthOf);
  if (headerMonths.some((m) => m !== null)) {
    labels = rows.map((r) => r[0] ?? '');
    periods = headerMonths.flatMap((month, i) => (month ? [{ month, values: rows.map((r) => parseNumber(r[i + 1])) }] : []));
  } else {
    labels = header.slice(1);
    periods = rows.flatMap((r) => {
      const month = monthOf(r[0]);
      return month ? [{ month, values: r.slice(1).map((c) => parseNumber(c)) }] : [];
    });
  }
  // Month keys are YYYY-MM, so the string order is the time order.
  periods.sort((a, b) => a.month.localeCompare(b.month));
  const latest = periods.at(-1);
  if (!latest || labels.length === 0) throw new UpstreamError('parse', 'BA Grundsicherung table without months or labelled rows');
  const current = named(labels, latest.values);
  return {
    region_name: region,
    reference_month: latest.month,
    ...current,
    figures: labels.map((label, i) => ({ label, value: latest.values[i] ?? null })),
    series: periods.map((p) => ({ month: p.month, ...named(labels, p.values) })),
    labels_unmatched: Object.values(current).every((v) => v === null) && !labels.some((l) => Object.values(GRUSI_LABELS).some((re) => re.test(l))),
  };
}
