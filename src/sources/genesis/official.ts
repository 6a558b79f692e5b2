import type { FetchContext } from '../../core/data-type.ts';
import type { StatisticsRecord } from '../../core/records/statistics.ts';
import { attributionOf } from '../../core/source.ts';
import { genesisStatistics, type StatTable } from './adapters.ts';
import { GENESIS } from './source.ts';

/** An official-statistics part of another type's answer: the statistics record plus its own credit. */
export type OfficialPart = StatisticsRecord & { table: string; source: string; license: string; attribution: string };

export interface OfficialParts {
  /** One record per declared part, null where there is none. */
  parts: Record<string, OfficialPart | null>;
  /** Why a part is null: credentials missing, district table for a kreisangehörige city, no values, upstream down. */
  reasons: Record<string, string>;
}

/**
 * Reads Regionaldatenbank tables as parts of an answer whose main source is another one (OSM
 * counts, BA figures), through the same generic GENESIS adapter, cache entries and breaker as
 * the statistics types. Each part keeps its own table, source and licence.
 */
export async function officialParts(ctx: FetchContext, tables: Readonly<Record<string, StatTable>>): Promise<OfficialParts> {
  const credit = attributionOf(GENESIS);
  const parts: Record<string, OfficialPart | null> = {};
  const reasons: Record<string, string> = {};
  await Promise.all(
    Object.entries(tables).map(async ([key, table]) => {
      const got = await ctx.part(GENESIS, (sub) => genesisStatistics(table)(sub));
      parts[key] = null;
      if (got.status !== 'ok') {
        reasons[key] =
          got.status === 'disabled' ? `${table.table}: ${got.reason} (Regionaldatenbank account, see /api/v1/sources)` : `${table.table}: ${got.reason}`;
        return;
      }
      const { data, meta } = got.value;
      if (!data) {
        const why = typeof meta?.reason === 'string' ? meta.reason : 'no value for this city';
        reasons[key] = why.includes(table.table) ? why : `${table.table}: ${why}`;
        return;
      }
      parts[key] = { ...data, table: table.table, source: credit.source, license: credit.license, attribution: credit.text };
    }),
  );
  return { parts, reasons };
}
