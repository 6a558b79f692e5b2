import type { FetchContext } from '../../core/data-type.ts';
import type { StatField, StatisticsRecord } from '../../core/records/statistics.ts';
import { attributionOf } from '../../core/source.ts';
import { genesisStatistics, round, type StatTable } from './adapters.ts';
import { GENESIS } from './source.ts';

/** An official-statistics part of another type's answer: the statistics record plus its own credit. */
export type OfficialPart = StatisticsRecord & { table: string; source: string; license: string; attribution: string };

/** A read field per `per` inhabitants of the city register (the district is the city: district tables answer only for district-free cities). */
export interface PerInhabitants extends StatField {
  of: string;
  per: number;
}

/** A Regionaldatenbank table read as a part, optionally with values per inhabitants. */
export interface OfficialTable extends StatTable {
  rates?: readonly PerInhabitants[];
}

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
export async function officialParts(ctx: FetchContext, tables: Readonly<Record<string, OfficialTable>>): Promise<OfficialParts> {
  const credit = attributionOf(GENESIS);
  const read = async ([key, table]: [string, OfficialTable]): Promise<[string, OfficialPart | null, string | null]> => {
    const got = await ctx.part(GENESIS, (sub) => genesisStatistics(table)(sub));
    if (got.status !== 'ok') {
      const hint = got.status === 'disabled' ? ' (Regionaldatenbank account, see /api/v1/sources)' : '';
      return [key, null, `${table.table}: ${got.reason}${hint}`];
    }
    const { data, meta } = got.value;
    if (!data) {
      const why = typeof meta?.reason === 'string' ? meta.reason : 'no value for this city';
      return [key, null, why.includes(table.table) ? why : `${table.table}: ${why}`];
    }
    const population = ctx.city.population;
    const rates = Object.fromEntries(
      (table.rates ?? []).map((r) => {
        const v = data[r.of];
        return [r.field, typeof v === 'number' && population ? round((v / population) * r.per, 1) : null];
      }),
    );
    return [key, { ...data, ...rates, table: table.table, source: credit.source, license: credit.license, attribution: credit.text }, null];
  };
  // Read in parallel, assembled in declaration order so equal answers serialise (and tag) equally.
  const results = await Promise.all(Object.entries(tables).map(read));
  const parts: Record<string, OfficialPart | null> = {};
  const reasons: Record<string, string> = {};
  for (const [key, part, reason] of results) {
    parts[key] = part;
    if (reason !== null) reasons[key] = reason;
  }
  return { parts, reasons };
}
