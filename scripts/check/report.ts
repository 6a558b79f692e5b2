import { VERDICTS, type Verdict } from './verdict.ts';
import type { CheckResult } from './run.ts';

/** The report as a table: one row per data type and city, in catalog order. */
export function table(results: readonly CheckResult[], width = 160): string {
  const head = { type: 'TYPE', city: 'CITY', source: 'SOURCE', verdict: 'VERDICT', detail: 'DETAIL' };
  const rows = results.map((r) => ({
    type: r.type,
    city: r.city ?? (r.params ? Object.values(r.params).join(',') : '-'),
    source: r.source,
    verdict: r.verdict,
    detail: r.detail,
  }));
  const w = (k: 'type' | 'city' | 'source' | 'verdict') => Math.max(head[k].length, ...rows.map((r) => r[k].length));
  const cols = { type: w('type'), city: Math.min(w('city'), 22), source: Math.min(w('source'), 28), verdict: w('verdict') };
  const fixed = cols.type + cols.city + cols.source + cols.verdict + 8;
  const line = (r: typeof head) =>
    [
      r.type.padEnd(cols.type),
      cut(r.city, cols.city).padEnd(cols.city),
      cut(r.source, cols.source).padEnd(cols.source),
      r.verdict.padEnd(cols.verdict),
      cut(r.detail, Math.max(30, width - fixed)),
    ]
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

function cut(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

export function counts(results: readonly CheckResult[]): string {
  const n = (v: Verdict) => results.filter((r) => r.verdict === v).length;
  const types = new Set(results.map((r) => r.type)).size;
  return `${results.length} checks of ${types} data types: ${VERDICTS.map((v) => `${n(v)} ${v}`).join(', ')}`;
}

/** A check that got worse against the baseline. */
export interface Change {
  type: string;
  city: string | null;
  source: string;
  was: Verdict;
  now: Verdict;
  detail: string;
  regression: boolean;
}

const BROKEN: readonly Verdict[] = ['parse_error', 'http_error'];

/**
 * Compares a run with an earlier report. A regression is a check that answered (ok or no_data)
 * and now fails (parse_error, http_error), or that was ok and is now disabled (a lost setting).
 * ok -> no_data is listed as a change but is no regression: live data come and go (no warning
 * today, no roadworks tonight).
 */
export function compare(baseline: readonly CheckResult[], now: readonly CheckResult[]): Change[] {
  const before = new Map(baseline.map((r) => [keyOf(r), r]));
  const changes: Change[] = [];
  for (const r of now) {
    const b = before.get(keyOf(r));
    if (!b || b.verdict === r.verdict) continue;
    const regression =
      (!BROKEN.includes(b.verdict) && b.verdict !== 'disabled' && BROKEN.includes(r.verdict)) || (b.verdict === 'ok' && r.verdict === 'disabled');
    changes.push({ type: r.type, city: r.city, source: r.source, was: b.verdict, now: r.verdict, detail: r.detail, regression });
  }
  return changes;
}

function keyOf(r: CheckResult): string {
  return `${r.type}|${r.city ?? '-'}|${r.source}|${JSON.stringify(r.params ?? {})}`;
}

/** Reads a `--json` report (a list of checks), refusing anything else with a clear message. */
export function parseReport(text: string, file: string): CheckResult[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not JSON`);
  }
  if (!Array.isArray(data)) throw new Error(`${file} is not a check report (a JSON list of {type, city, verdict, detail})`);
  for (const r of data as Record<string, unknown>[]) {
    if (typeof r?.type !== 'string' || !VERDICTS.includes(r.verdict as Verdict))
      throw new Error(`${file}: not a check report row: ${JSON.stringify(r).slice(0, 120)}`);
  }
  return data as CheckResult[];
}
