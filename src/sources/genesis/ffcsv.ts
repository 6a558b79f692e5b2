import { UpstreamError } from '../../core/upstream-error.ts';
import { delimitedRows } from '../../core/delimited.ts';
import { parseNumber } from '../../core/numbers.ts';

/**
 * GENESIS "flat file CSV" (ffcsv): one line per value, `;`-separated, German numbers,
 * statistical signs instead of numbers where a value is missing or secret.
 */
export interface FfcsvVariable {
  code: string;
  label: string;
  attribute_code: string;
  attribute_label: string;
}

export interface FfcsvRow {
  statistic: string;
  time_code: string;
  time_label: string;
  time: string;
  /** Classifying variables present in this line (empty columns dropped), region included. */
  variables: FfcsvVariable[];
  value: number | null;
  /** The value cell as published, e.g. `1.234,5`, `-` or `.`. */
  raw_value: string;
  unit: string;
  value_code: string;
  value_label: string;
}

const REQUIRED = ['statistics_code', 'time_code', 'time', 'value', 'value_unit', 'value_variable_code', 'value_variable_label'];

export function parseFfcsv(input: string | Buffer): FfcsvRow[] {
  const text = typeof input === 'string' ? input : input.toString('utf8');
  const records = delimitedRows(text, { label: 'ffcsv', trim: false });
  const [first] = records;
  if (first === undefined) throw new UpstreamError('parse', 'empty ffcsv');
  const header = first.map((h) => h.trim());
  const col = (name: string) => header.indexOf(name);
  for (const name of REQUIRED) {
    if (col(name) < 0) throw new UpstreamError('parse', `ffcsv without column ${name}`);
  }
  const varSlots: { code: number; label: number; attr: number; attrLabel: number }[] = [];
  for (let i = 1; col(`${i}_variable_code`) >= 0; i++) {
    varSlots.push({
      code: col(`${i}_variable_code`),
      label: col(`${i}_variable_label`),
      attr: col(`${i}_variable_attribute_code`),
      attrLabel: col(`${i}_variable_attribute_label`),
    });
  }
  const idx = {
    statistics_code: col('statistics_code'),
    time_code: col('time_code'),
    time_label: col('time_label'),
    time: col('time'),
    value: col('value'),
    value_unit: col('value_unit'),
    value_variable_code: col('value_variable_code'),
    value_variable_label: col('value_variable_label'),
  };
  const cell = (r: string[], i: number) => (i >= 0 ? (r[i] ?? '').trim() : '');
  return records.slice(1).map((r) => {
    const variables: FfcsvVariable[] = [];
    for (const v of varSlots) {
      const code = cell(r, v.code);
      if (!code) continue;
      variables.push({ code, label: cell(r, v.label), attribute_code: cell(r, v.attr), attribute_label: cell(r, v.attrLabel) });
    }
    const raw = cell(r, idx.value);
    return {
      statistic: cell(r, idx.statistics_code),
      time_code: cell(r, idx.time_code),
      time_label: cell(r, idx.time_label),
      time: cell(r, idx.time),
      variables,
      value: parseNumber(raw, { qualityMarks: true }),
      raw_value: raw,
      unit: cell(r, idx.value_unit),
      value_code: cell(r, idx.value_variable_code),
      value_label: cell(r, idx.value_variable_label),
    };
  });
}
