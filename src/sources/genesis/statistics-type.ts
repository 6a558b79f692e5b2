import type { AdapterResult, CacheWindows, DataType, FetchContext, Group } from '../../core/data-type.ts';
import { GENESIS } from './source.ts';
import { levelOf, regionFor, type RegionRequest } from './region.ts';
import { latestWithData, rowsOfRegion, series, type BreakdownDecl, type FieldDecl, type PeriodRecord, type Values } from './select.ts';
import { GenesisClient, type TableAnswer, type TableRequest } from './tablefile.ts';

/** One official-statistics data type: which table, which values, how they are named. */
export interface StatDecl {
  type: string;
  label: string;
  label_en: string;
  group: Extract<Group, 'society' | 'economy'>;
  summary: string;
  description?: string;
  /** Regionaldatenbank table code; `-5` is per municipality, `-4` per district. */
  table: string;
  /** `latest`: the newest period with data; `series`: every period since `years` ago. */
  mode?: 'latest' | 'series';
  /** Newest periods requested (`timeslices`): a few for `latest`, since the newest can be all placeholders. */
  periods?: number;
  fields: readonly FieldDecl[];
  breakdown?: BreakdownDecl;
  /** Values computed from the named fields (shares, balances, averages). */
  derive?: (v: Values) => Values;
  compare?: DataType['compare'];
}

export const STAT_CACHE: CacheWindows = { freshSeconds: 86_400, staleSeconds: 2_592_000 };

export function round(v: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

export function ratio(a: number | null | undefined, b: number | null | undefined, scale = 1): number | null {
  return a === null || a === undefined || !b ? null : round((a / b) * scale);
}

/** The data type interpreting a declaration: region rule, shared table fetch, period choice, naming. */
export function statisticsType(d: StatDecl): DataType {
  const mode = d.mode ?? 'latest';
  return {
    type: d.type,
    label: d.label,
    label_en: d.label_en,
    group: d.group,
    tool: d.type.replace(/-/g, '_'),
    summary: d.summary,
    description:
      d.description ??
      `Regionaldatenbank Deutschland table ${d.table} (${levelOf(d.table) === 'municipality' ? 'per municipality' : 'per district; only for district-free cities'}).`,
    source: GENESIS,
    cache: STAT_CACHE,
    compare: d.compare,
    fetch: (ctx) => fetchStatistics(ctx, d, mode),
  };
}

async function fetchStatistics(ctx: FetchContext, d: StatDecl, mode: 'latest' | 'series'): Promise<AdapterResult> {
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
    const data = seriesRecord(series(rows, sel), d, region);
    if (!data) return noValues;
    return { data, meta };
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

function periodRecord(rec: PeriodRecord, d: StatDecl, region: { variable: string; key: string }) {
  const out: Record<string, unknown> = {
    period: rec.period,
    reference_date: rec.reference_date,
    period_type: rec.period_type,
    region_key: rec.region_key ?? region.key,
    region_name: rec.region_name,
    region_level: levelOf(d.table),
    ...rec.values,
    ...(d.derive ? d.derive(rec.values) : {}),
  };
  if (d.breakdown) out[d.breakdown.key] = rec.breakdown;
  out.units = rec.units;
  out.table_values = rec.all;
  return out;
}

/** The series with its change from first to last period; null without periods. */
function seriesRecord(periods: PeriodRecord[], d: StatDecl, region: { variable: string; key: string }) {
  const first = periods[0];
  const last = periods.at(-1);
  if (!first || !last) return null;
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
    series: periods.map((p) => ({ period: p.period, reference_date: p.reference_date, ...p.values, ...(d.derive ? d.derive(p.values) : {}) })),
  };
}
