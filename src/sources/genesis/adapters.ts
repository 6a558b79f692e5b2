import type { Adapter, AdapterResult, CacheWindows, FetchContext } from '../../core/data-type.ts';
import type { StatField, StatisticsRecord } from '../../core/records/statistics.ts';
import { GENESIS } from './source.ts';
import { levelOf, regionFor, type RegionRequest } from './region.ts';
import { latestWithData, rowsOfRegion, series, type BreakdownDecl, type FieldDecl, type PeriodRecord, type Values } from './select.ts';
import { GenesisClient, type TableAnswer, type TableRequest } from './tablefile.ts';

/** A value read from the table: which variable (and attributes) it is, and what it means. */
export interface StatFieldDecl extends FieldDecl, StatField {}

/** A value computed from the read ones (a share, balance or average). */
export interface StatDerived extends StatField {
  compute: (v: Values) => number | null;
}

/** Which table, which values, how they are named: everything the generic adapter needs. */
export interface StatTable {
  /** Regionaldatenbank table code; `-5` is per municipality, `-4` per district. */
  table: string;
  /** `latest`: the newest period with data; `series`: every period of the newest `periods`. */
  mode?: 'latest' | 'series';
  /** Newest periods requested (`timeslices`): a few for `latest`, since the newest can be all placeholders. */
  periods?: number;
  fields: readonly StatFieldDecl[];
  breakdown?: Omit<BreakdownDecl, 'fields'> & { description: string; fields: readonly StatFieldDecl[] };
  derived?: readonly StatDerived[];
}

export const STAT_CACHE: CacheWindows = { freshSeconds: 86_400, staleSeconds: 2_592_000 };

export function round(v: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

export function ratio(a: number | null | undefined, b: number | null | undefined, scale = 1): number | null {
  return a === null || a === undefined || !b ? null : round((a / b) * scale);
}

/** The default description of a statistics type: its table and level. */
export function tableDescription(table: string): string {
  return `Regionaldatenbank Deutschland table ${table} (${levelOf(table) === 'municipality' ? 'per municipality' : 'per district; only for district-free cities'}).`;
}

/** The adapter interpreting a declaration: region rule, shared table fetch, period choice, naming. */
export function genesisStatistics(d: StatTable): Adapter<StatisticsRecord> {
  const mode = d.mode ?? 'latest';
  return (ctx) => fetchStatistics(ctx, d, mode);
}

async function fetchStatistics(ctx: FetchContext, d: StatTable, mode: 'latest' | 'series'): Promise<AdapterResult<StatisticsRecord>> {
  const rule = regionFor(ctx.city, d.table);
  const meta: Record<string, unknown> = { table: d.table, table_level: levelOf(d.table) };
  if (!rule.ok) return { data: null, status: 'no_data', meta: { ...meta, reason: rule.reason } };
  const periods = d.periods ?? (mode === 'series' ? 11 : 3);
  const { answer, region } = await loadTable(ctx, d.table, rule.region, periods);
  Object.assign(meta, { regional_variable: region.variable, regional_key: region.key, timeslices: periods });
  if (answer.status === 'empty') {
    return { data: null, status: 'no_data', meta: { ...meta, reason: `${d.table} holds no object for ${region.variable} ${region.key}: ${answer.message}` } };
  }
  const rows = rowsOfRegion(answer.rows, region.key);
  const sel = { fields: d.fields, breakdown: d.breakdown };
  const noValues = {
    data: null,
    status: 'no_data' as const,
    meta: {
      ...meta,
      reason: `every value of ${d.table} for ${region.key} in the newest ${periods} periods is a placeholder (not available, secret or not yet published)`,
    },
  };
  if (mode === 'series') {
    const found = series(rows, sel);
    if (found.length === 0) return noValues;
    return { data: seriesRecord(found, d, region), meta };
  }
  const rec = latestWithData(rows, sel);
  if (!rec) return noValues;
  return { data: periodRecord(rec, d, region), meta };
}

/** Tables shared by several types (tax-rates and municipal-finance) are fetched once per city. */
async function loadTable(
  ctx: FetchContext,
  table: string,
  region: RegionRequest,
  periods: number,
): Promise<{ answer: TableAnswer; region: { variable: string; key: string } }> {
  const client = new GenesisClient(ctx.http, ctx.store, GENESIS.maxResponseBytes ?? ctx.config.maxResponseBytes);
  const get = (variable: string, key: string) => {
    const req: TableRequest = { table, variable, key, periods };
    return ctx.cached(`tablefile:${table}:${variable}:${key}:${periods}`, STAT_CACHE, () => client.table(req));
  };
  const answer = await get(region.variable, region.key);
  if (answer.status === 'empty' && region.fallback) {
    const alt = await get(region.fallback.variable, region.fallback.key);
    if (alt.status === 'ok') return { answer: alt, region: region.fallback };
  }
  return { answer, region };
}

function derivedValues(d: StatTable, v: Values): Values {
  return Object.fromEntries((d.derived ?? []).map((x) => [x.field, x.compute(v)]));
}

function periodRecord(rec: PeriodRecord, d: StatTable, region: { variable: string; key: string }): StatisticsRecord {
  const out: StatisticsRecord = {
    period: rec.period,
    reference_date: rec.reference_date,
    period_type: rec.period_type,
    region_key: rec.region_key ?? region.key,
    region_name: rec.region_name,
    region_level: levelOf(d.table),
    ...rec.values,
    ...derivedValues(d, rec.values),
    units: rec.units,
    table_values: rec.all,
  };
  if (d.breakdown) out[d.breakdown.key] = rec.breakdown;
  return out;
}

function seriesRecord(periods: PeriodRecord[], d: StatTable, region: { variable: string; key: string }): StatisticsRecord {
  const first = periods[0];
  const last = periods.at(-1);
  // Callers pass at least one period (an empty series answers no_data before).
  if (!first || !last) throw new Error('a series needs at least one period');
  const change: Values = {};
  for (const f of d.fields) {
    const a = first.values[f.field] ?? null,
      b = last.values[f.field] ?? null;
    change[`${f.field}_change`] = a !== null && b !== null && periods.length > 1 ? round(b - a, 3) : null;
    change[`${f.field}_change_pct`] = a !== null && b !== null && periods.length > 1 && a !== 0 ? round(((b - a) / a) * 100) : null;
  }
  return {
    ...periodRecord(last, d, region),
    series_start: first.period,
    ...change,
    series: periods.map((p) => ({ period: p.period, reference_date: p.reference_date, ...p.values, ...derivedValues(d, p.values) })),
  };
}
