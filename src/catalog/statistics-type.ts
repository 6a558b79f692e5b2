import { dataType, type Adapter, type DataType, type Example, type Group, type TypeSource } from '../core/data-type.ts';
import { statisticsRecord, type StatisticsRecord } from '../core/records/statistics.ts';
import { lazy } from '../core/schema.ts';
import { GENESIS } from '../sources/genesis/source.ts';
import { STAT_CACHE, genesisStatistics, tableDescription, type StatFieldDecl, type StatTable } from '../sources/genesis/adapters.ts';
import type { FieldDecl } from '../sources/genesis/select.ts';

/**
 * One official-statistics data type of the Regionaldatenbank Deutschland, declared once: the
 * table and its values (read by the generic GENESIS adapter) plus how the type is presented.
 * Its record schema is derived from the declared fields, so a new table is one declaration.
 */
export interface StatDecl extends StatTable {
  type: string;
  label: string;
  label_en: string;
  group: Extract<Group, 'society' | 'economy'>;
  summary: string;
  description?: string;
  compare?: DataType['compare'];
  example: Example;
  /** Sources beside the Regionaldatenbank (its primary), e.g. a keyless stand-in while its credentials are missing. */
  sources?: readonly TypeSource<Adapter<StatisticsRecord>>[];
}

export function statisticsType(d: StatDecl): DataType {
  return dataType({
    type: d.type,
    label: d.label,
    label_en: d.label_en,
    group: d.group,
    summary: d.summary,
    description: d.description ?? tableDescription(d.table),
    record: lazy(() => statisticsRecord(d)),
    cache: STAT_CACHE,
    compare: d.compare,
    example: d.example,
    sources: [{ role: 'primary', source: GENESIS, adapter: genesisStatistics(d) }, ...(d.sources ?? [])],
  });
}

/*
 * Codes seen in recorded answers (BEVSTD, GES/GESM/GESW, ERW032, NAT/NATA, ISV006,
 * ISVAT3/ISVART01/02, ISVNW1, FOR002) are matched by code; the other tables by the German
 * wording of their value variables, which the table titles document (see
 * test/fixtures/genesis/README.md).
 */
export const byCode = (...codes: string[]) => ({ codes });
export const byLabel = (label: RegExp) => ({ label });

/** A value in total and for men and women (GENESIS variable GES). */
export const bySex = (field: string, value: FieldDecl['value'], description: string, unit?: string): StatFieldDecl[] => [
  { field, value, description, unit },
  { field: `${field}_male`, value, where: { GES: 'GESM' }, description: `${description}, male`, unit },
  { field: `${field}_female`, value, where: { GES: 'GESW' }, description: `${description}, female`, unit },
];

export const POPULATION = byCode('BEVSTD');
