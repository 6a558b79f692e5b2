import { list, num, record, text, z, lazy } from '../schema.ts';

/** One published value of an official-statistics record: its name, meaning and unit. */
export interface StatField {
  field: string;
  description: string;
  /** Unit of the value as the table publishes it (none for counts). */
  unit?: string;
}

/** What a statistics data type publishes, enough to derive its record schema. */
export interface StatShape {
  fields: readonly StatField[];
  /** Values computed from the fields (shares, balances, averages). */
  derived?: readonly StatField[];
  /** A list of the attributes of one classifying variable, under `key`. */
  breakdown?: { key: string; description: string; fields: readonly StatField[] };
  /** `series`: the newest period plus every period with data and the change over them. */
  mode?: 'latest' | 'series';
}

/** The members every statistics record has; the declared values come on top. */
export type StatisticsRecord = {
  period: string;
  reference_date: string | null;
  period_type: string;
  region_key: string | null;
  region_name: string | null;
  region_level: string;
  units: Record<string, string>;
  table_values: { code: string; label: string; unit: string | null; value: number | null }[];
} & { [field: string]: unknown };

const values = (fields: readonly StatField[]) => Object.fromEntries(fields.map((f) => [f.field, num(f.description, f.unit)]));

const tableValue = lazy(() =>
  record({
    code: z.string().meta({ description: 'GENESIS code of the value variable' }),
    label: z.string().meta({ description: 'German label of the value variable' }),
    unit: text('Unit, English (count, thousand EUR, percent ...)'),
    value: num('Value; null for placeholders (not available, secret, not yet published)'),
  }),
);

/** The record schema of one statistics data type, derived from its declared fields. */
export function statisticsRecord(shape: StatShape, extra: z.ZodRawShape = {}): z.ZodType<StatisticsRecord> {
  const own = [...shape.fields, ...(shape.derived ?? [])];
  const common = {
    period: z.string().meta({ description: 'Period as GENESIS states it: a year (YYYY) or a reference date (DD.MM.YYYY or YYYY-MM-DD)' }),
    reference_date: text('Reference date of the period, YYYY-MM-DD (a year ends on 31 December)'),
    period_type: z.string().meta({ description: 'reference_date (a Stichtag) or year (annual sum or mean)' }),
    region_key: text('Regional key of the answer (AGS, or Kreis key for district tables)'),
    region_name: text('Region name as GENESIS states it'),
    region_level: z.string().meta({ description: 'Table level: municipality or district' }),
    ...values(own),
    units: z.record(z.string(), z.string()).meta({ description: 'Unit per declared field as the table publishes it (count, percent, thousand EUR ...)' }),
    table_values: list(tableValue(), 'Every total the table publishes for the period, including values no field names'),
  };
  const breakdown = shape.breakdown
    ? {
        [shape.breakdown.key]: list(
          record({
            code: z.string().meta({ description: 'GENESIS attribute code' }),
            label: z.string().meta({ description: 'German attribute label' }),
            ...values(shape.breakdown.fields),
          }),
          shape.breakdown.description,
        ),
      }
    : {};
  const series =
    shape.mode === 'series'
      ? {
          series_start: z.string().meta({ description: 'First period of the series' }),
          ...Object.fromEntries(
            shape.fields.flatMap((f) => [
              [`${f.field}_change`, num(`Change of ${f.field} from the first to the last period`, f.unit)],
              [`${f.field}_change_pct`, num(`Relative change of ${f.field} from the first to the last period`, '%')],
            ]),
          ),
          series: list(
            record({ period: z.string().meta({ description: 'Period' }), reference_date: text('Reference date, YYYY-MM-DD'), ...values(own) }),
            'Every period with data, oldest first',
          ),
        }
      : {};
  // The shape is built from the declaration at run time, so statically only the common members are known.
  return record({ ...common, ...breakdown, ...series, ...extra }) as unknown as z.ZodType<StatisticsRecord>;
}

/** A Regionaldatenbank table read as one part of another type's answer (see sources/genesis/official.ts). */
export interface OfficialShape extends StatShape {
  table: string;
  /** Values per inhabitants of the city register, computed from a read field. */
  rates?: readonly StatField[];
}

const partCredit = {
  table: z.string().meta({ description: 'Regionaldatenbank table code the part comes from' }),
  source: z.string().meta({ description: 'Source of this part' }),
  license: z.string().meta({ description: 'Licence of this part' }),
  attribution: z.string().meta({ description: 'Credit line of this part' }),
};

/**
 * The `official` member of a type that combines another source with Regionaldatenbank tables:
 * one statistics record per part, each with its own source and licence; null when there is
 * none (meta.official_reasons says why, e.g. which credential unlocks it).
 */
export function officialPartsRecord(parts: Readonly<Record<string, OfficialShape>>, description: string) {
  const shape = Object.fromEntries(
    Object.entries(parts).map(([key, part]) => [
      key,
      statisticsRecord({ ...part, derived: [...(part.derived ?? []), ...(part.rates ?? [])] }, partCredit)
        .nullable()
        .meta({
          description: `Regionaldatenbank table ${part.table} (dl-de/by-2-0; district table: district-free cities only); null: see meta.official_reasons.${key}`,
        }),
    ]),
  );
  return record(shape, description);
}
