import type { FfcsvRow, FfcsvVariable } from './ffcsv.ts';
import { REGION_VARIABLES } from './region.ts';

/** Matches a value or classifying variable by its GENESIS code or, failing that, its German label. */
export interface Matcher {
  codes?: readonly string[];
  label?: RegExp;
}

/**
 * One output field: a value variable, restricted to attributes of classifying variables (all
 * others at their total). Codes seen in recorded answers are matched by code; where only the
 * German wording is documented, by label.
 */
export interface FieldDecl {
  field: string;
  value: Matcher;
  /** Classifying variable code → attribute code; `''` is the total (`Insgesamt`). */
  where?: Readonly<Record<string, string>>;
  /** Some classifying variable must carry an attribute matching this (by code or label). */
  attribute?: Matcher;
}

/** A list of the attributes of one classifying variable (age groups, school types, …). */
export interface BreakdownDecl {
  key: string;
  variable: Matcher;
  fields: readonly FieldDecl[];
}

export interface Selection {
  fields: readonly FieldDecl[];
  breakdown?: BreakdownDecl;
}

export type Values = Record<string, number | null>;

export interface PeriodRecord {
  period: string;
  reference_date: string | null;
  period_type: string;
  region_key: string | null;
  region_name: string | null;
  values: Values;
  breakdown: (Values & { code: string; label: string })[];
  units: Record<string, string>;
  /** Every total of the period as published, for values no field names. */
  all: { code: string; label: string; unit: string; value: number | null }[];
}

const UNITS: Record<string, string> = {
  Anzahl: 'count',
  'Tsd. EUR': 'thousand EUR',
  'Tsd.': 'thousand',
  EUR: 'EUR',
  Prozent: 'percent',
  '%': 'percent',
  Jahre: 'years',
  qkm: 'km²',
  '1000 qm': 'thousand m²',
  'Tsd. qm': 'thousand m²',
  qm: 'm²',
  Promille: 'per mille',
};

export function unitOf(raw: string): string {
  return UNITS[raw] ?? raw;
}

function matches(m: Matcher, code: string, label: string): boolean {
  if (m.codes?.includes(code)) return true;
  return m.label ? m.label.test(label) : false;
}

const classifying = (row: FfcsvRow) => row.variables.filter((v) => !REGION_VARIABLES.has(v.code));

function rowFits(row: FfcsvRow, f: FieldDecl, skip?: FfcsvVariable): boolean {
  if (!matches(f.value, row.value_code, row.value_label)) return false;
  let vars = classifying(row).filter((v) => v !== skip);
  if (f.attribute) {
    const hit = vars.find((v) => v.attribute_code !== '' && matches(f.attribute!, v.attribute_code, v.attribute_label));
    if (!hit) return false;
    vars = vars.filter((v) => v !== hit);
  }
  for (const [code, attr] of Object.entries(f.where ?? {})) {
    const v = vars.find((x) => x.code === code);
    if (attr === '' ? v !== undefined && v.attribute_code !== '' : v?.attribute_code !== attr) return false;
  }
  return vars.every((v) => f.where?.[v.code] !== undefined || v.attribute_code === '');
}

function pick(rows: readonly FfcsvRow[], f: FieldDecl, skip?: (row: FfcsvRow) => FfcsvVariable | undefined): FfcsvRow | undefined {
  return rows.find((r) => rowFits(r, f, skip?.(r)));
}

/** Periods newest first; `dd.mm.yyyy` sorts as a date. */
export function periodsDescending(rows: readonly FfcsvRow[]): string[] {
  return [...new Set(rows.map((r) => r.time))].sort((a, b) => sortKey(b).localeCompare(sortKey(a)));
}

function sortKey(time: string): string {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(time);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : time;
}

export function referenceDate(time: string, timeCode: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(time)) return time;
  const de = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(time);
  if (de) return `${de[3]}-${de[2]}-${de[1]}`;
  // Annual sums and averages end with the calendar year.
  if (/^\d{4}$/.test(time) && timeCode === 'JAHR') return `${time}-12-31`;
  return null;
}

const PERIOD_TYPES: Record<string, string> = { STAG: 'reference_date', JAHR: 'year' };

/** The declared values of one period, or null when the period has none of them. */
export function extractPeriod(rows: readonly FfcsvRow[], period: string, sel: Selection): PeriodRecord | null {
  const inPeriod = rows.filter((r) => r.time === period);
  if (inPeriod.length === 0) return null;
  const values: Values = {};
  const units: Record<string, string> = {};
  for (const f of sel.fields) {
    const row = pick(inPeriod, f);
    values[f.field] = row?.value ?? null;
    if (row?.unit) units[f.field] = unitOf(row.unit);
  }
  const breakdown: PeriodRecord['breakdown'] = [];
  if (sel.breakdown) {
    const bd = sel.breakdown;
    const byVar = (r: FfcsvRow) => classifying(r).find((v) => matches(bd.variable, v.code, v.label) && v.attribute_code !== '');
    const attrs = new Map<string, string>();
    for (const r of inPeriod) {
      const v = byVar(r);
      if (v && !attrs.has(v.attribute_code)) attrs.set(v.attribute_code, v.attribute_label);
    }
    for (const [code, label] of attrs) {
      const ofAttr = inPeriod.filter((r) => byVar(r)?.attribute_code === code);
      const item: Values & { code: string; label: string } = { code, label } as Values & { code: string; label: string };
      for (const f of bd.fields) {
        const row = pick(ofAttr, f, byVar);
        item[f.field] = row?.value ?? null;
        if (row?.unit) units[f.field] ??= unitOf(row.unit);
      }
      breakdown.push(item);
    }
  }
  const hasData = Object.values(values).some((v) => v !== null) || breakdown.some((b) => sel.breakdown!.fields.some((f) => b[f.field] !== null));
  if (!hasData) return null;
  const first = inPeriod[0];
  if (!first) return null;
  const region = first.variables.find((v) => REGION_VARIABLES.has(v.code));
  return {
    period,
    reference_date: referenceDate(period, first.time_code),
    period_type: PERIOD_TYPES[first.time_code] ?? first.time_code.toLowerCase(),
    region_key: region?.attribute_code ?? null,
    region_name: region?.attribute_label ?? null,
    values,
    breakdown,
    units,
    all: inPeriod
      .filter((r) => classifying(r).every((v) => v.attribute_code === ''))
      .map((r) => ({ code: r.value_code, label: r.value_label, unit: unitOf(r.unit), value: r.value })),
  };
}

/** The newest period that carries any declared value: the newest one is often all `-`. */
export function latestWithData(rows: readonly FfcsvRow[], sel: Selection): PeriodRecord | null {
  for (const p of periodsDescending(rows)) {
    const rec = extractPeriod(rows, p, sel);
    if (rec) return rec;
  }
  return null;
}

/** Every period with data, oldest first. */
export function series(rows: readonly FfcsvRow[], sel: Selection): PeriodRecord[] {
  return periodsDescending(rows)
    .reverse()
    .map((p) => extractPeriod(rows, p, sel))
    .filter((r): r is PeriodRecord => r !== null);
}

/** Lines of one region key only (a request by key can still carry a Germany or Land line). */
export function rowsOfRegion(rows: readonly FfcsvRow[], key: string): FfcsvRow[] {
  return rows.filter((r) => r.variables.some((v) => REGION_VARIABLES.has(v.code) && v.attribute_code === key));
}
