/**
 * The one reader of numbers written as text by the sources: German statistics (`1.234.567,8`), decimal commas in
 * CSV and XML (`7,2`), English thousands (`5,940,667`), quality marks of GENESIS (`(12)`, `123 p`) and units after
 * the number (`38,5 m3/s`). Strict: a text that is not exactly a number in the stated notation is null, never a
 * guess ("1.2345" is no German number; `Number()` would read "0x10" as 16).
 */

/** How a source writes its numbers. */
export type Notation =
  /** German: a dot groups thousands, a comma marks decimals (`1.234,5`, `226.880`, `27,4`). */
  | 'de'
  /** German, or a plain decimal dot where the text is no German grouping (`12.5`; INKAR mixes both). */
  | 'de-or-dot'
  /** No grouping; one decimal separator, comma or dot (`7,2`, `6.85`): coordinates, counts, prices. */
  | 'decimal'
  /** English: a comma groups thousands, a dot marks decimals (`5,940,667`, `7,042.10`; BKA since 2023). */
  | 'en';

export interface NumberOptions {
  /** 'de' unless said otherwise. */
  notation?: Notation;
  /** A unit that follows the number (`/m(?:3|³)\/s/`); a text without it is null. */
  unit?: RegExp;
  /** GENESIS quality marks: `(12)` (limited reliability) and a trailing `p`, `r` or `s` keep the number. */
  qualityMarks?: boolean;
}

/** Signs German statistics write for "nothing", "secret", "not available", "not reliable", "blocked": no value. */
export const NUMBER_PLACEHOLDERS: ReadonlySet<string> = new Set(['', '-', '–', '.', '..', '...', '…', 'x', 'X', '/', '*']);

const SHAPES: Record<Notation, readonly [RegExp, (s: string) => string][]> = {
  de: [[/^[-+]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?$/, (s) => s.replace(/\./g, '').replace(',', '.')]],
  'de-or-dot': [
    [/^[-+]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?$/, (s) => s.replace(/\./g, '').replace(',', '.')],
    [/^[-+]?\d+\.\d+$/, (s) => s],
  ],
  decimal: [[/^[-+]?\d+(?:[.,]\d+)?$/, (s) => s.replace(',', '.')]],
  en: [[/^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/, (s) => s.replace(/,/g, '')]],
};

/** A number from a number or from its text in the given notation; null for a placeholder, garbage or a non-finite number. */
export function parseNumber(raw: unknown, o: NumberOptions = {}): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw !== 'string') return null;
  let s = raw.trim();
  if (o.unit) {
    const m = new RegExp(`^(.*?)\\s*(?:${o.unit.source})\\s*$`, 'i').exec(s);
    if (!m) return null;
    s = m[1]!;
  }
  if (o.qualityMarks) s = s.replace(/^\((.*)\)$/, '$1').replace(/\s*[prs]$/, '');
  // Spaces group thousands in some exports ("1 234,5", a no-break space too).
  s = s.replace(/[\s\u00a0\u202f]/g, '');
  if (NUMBER_PLACEHOLDERS.has(s)) return null;
  for (const [shape, plain] of SHAPES[o.notation ?? 'de']) {
    if (!shape.test(s)) continue;
    const n = Number(plain(s));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
