import type { Adapter, FetchContext, PartResult } from '../../core/data-type.ts';
import type { LandValuesRecord } from '../../core/records/land.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { isFormatDrift } from '../../core/format-drift-error.ts';
import { attributionOf } from '../../core/source.ts';
import { BORIS } from '../boris/source.ts';
import { BORIS_WINDOWS, standardLandValues, type BorisPart } from '../boris/standard-land-values.ts';
import { GENESIS } from './source.ts';
import { regionFor } from './region.ts';
import { latestWithData, rowsOfRegion, type FieldDecl, type Values } from './select.ts';
import { GenesisClient, type TableAnswer } from './tablefile.ts';

/** Kaufwerte für Bauland per district (the nationwide comparable table; no municipal twin exists). */
export const LAND_TABLE = '61511-01-03-4';
const PERIODS = 3;
const WINDOWS = { freshSeconds: 86_400, staleSeconds: 30 * 86_400 };

const KINDS = { building_land: '', building_ready_land: 'BAUNW101' } as const;
const VALUES = { price: 'BAU004', sales: 'BAU001', area: 'BAU002', sum: 'BAU003' } as const;

const FIELDS: FieldDecl[] = Object.entries(KINDS).flatMap(([kind, attr]) =>
  Object.entries(VALUES).map(([name, code]) => ({ field: `${kind}.${name}`, value: { codes: [code] }, where: { BAUNW2: attr } })),
);

function sales(v: Values, kind: keyof typeof KINDS): LandValuesRecord['building_land'] {
  const get = (n: keyof typeof VALUES) => v[`${kind}.${n}`] ?? null;
  const area = get('area');
  const sum = get('sum');
  return {
    price_eur_m2: get('price'),
    sales: get('sales'),
    // The table counts area in 1000 m² and sums in thousand euros.
    area_m2: area === null ? null : area * 1000,
    purchase_sum_eur: sum === null ? null : sum * 1000,
  };
}

type TablePart = Pick<LandValuesRecord, 'year' | 'region_key' | 'region_name' | 'building_land' | 'building_ready_land'>;
const NO_TABLE: TablePart = { year: null, region_key: null, region_name: null, building_land: null, building_ready_land: null };

/**
 * The newest year with a value of the building-land price table for the city's own district.
 * A city inside a district has no row of its own and gets none, never the district's value.
 */
async function tablePart(ctx: FetchContext): Promise<{ data: TablePart | null; note: string | null }> {
  const rule = regionFor(ctx.city, LAND_TABLE);
  if (!rule.ok) return { data: null, note: rule.reason };
  const { variable, key } = rule.region;
  const client = new GenesisClient(ctx.http, ctx.store, GENESIS.maxResponseBytes ?? ctx.config.maxResponseBytes);
  const answer = await ctx.cached<TableAnswer>(`tablefile:${LAND_TABLE}:${variable}:${key}:${PERIODS}`, WINDOWS, () =>
    client.table({ table: LAND_TABLE, variable, key, periods: PERIODS }),
  );
  if (answer.status === 'empty') return { data: null, note: `${LAND_TABLE} holds nothing for ${key}: ${answer.message}` };
  const rec = latestWithData(rowsOfRegion(answer.rows, key), { fields: FIELDS });
  if (!rec) return { data: null, note: `every value of ${LAND_TABLE} for ${key} in the newest ${PERIODS} years is a placeholder` };
  return {
    data: {
      year: rec.period,
      region_key: rec.region_key ?? key,
      region_name: rec.region_name,
      building_land: sales(rec.values, 'building_land'),
      building_ready_land: sales(rec.values, 'building_ready_land'),
    },
    note: null,
  };
}

function borisPart(ctx: FetchContext): Promise<BorisPart> {
  // Only WFS reads are cached; a state without a service answers at once.
  return ctx.cached(`boris:${ctx.city.slug}`, BORIS_WINDOWS, () => standardLandValues(ctx.http, ctx.city));
}

/** The note of a part that did not answer: which setting unlocks it, or that its upstream failed. */
function missing(what: string, part: Exclude<PartResult<unknown>, { status: 'ok' }>): string {
  return part.status === 'disabled'
    ? `${what}: not read (${part.reason}).`
    : `${what} could not be read this time (${part.reason}); the other part answers alone.`;
}

const partSource = (src: typeof GENESIS) => {
  const a = attributionOf(src);
  return { source: a.source, license: a.license, license_url: a.license_url, attribution: a.text };
};

/**
 * Two parts, each with its own source and licence: the nationwide building-land price table
 * (GENESIS, needs credentials) and the state's standard land values (BORIS, keyless). The type
 * answers ok when either has data; it is declared on GENESIS with the same adapter as its
 * keyless fallback on BORIS, so a server without GENESIS credentials still answers the BORIS part.
 * A part whose upstream fails is left out and said so, unless nothing else is there to answer.
 */
export const landValues: Adapter<LandValuesRecord> = async (ctx) => {
  // Each part behind its own source's settings, cache and breaker (FetchContext.part).
  const [table, boris] = await Promise.all([ctx.part(GENESIS, tablePart), ctx.part(BORIS, borisPart)]);
  const t = table.status === 'ok' ? table.value : { data: null, note: missing(`The building-land price table ${LAND_TABLE}`, table) };
  const b = boris.status === 'ok' ? boris.value : { data: null, note: missing('The BORIS standard land values', boris) };
  if (!t.data && !b.data) {
    // Nothing to answer with: an upstream failure is a failure (stale copy or 503), not no_data; a part in another
    // format is that part's format drift, naming its member; otherwise the table's failure as it was (a spent GENESIS
    // call budget is said as such, not as an unreachable upstream).
    const failed = [table, boris].flatMap((p) => (p.status === 'unavailable' ? [p.error] : []));
    const drift = failed.find(isFormatDrift);
    if (drift) throw drift;
    const first = failed[0];
    if (first instanceof UpstreamError) throw first;
    if (failed.length) throw new UpstreamError('network', 'no part of land-values could be read');
    return { data: null, status: 'no_data', meta: { table: LAND_TABLE, reason: [t.note, b.note].join(' ') } };
  }
  return {
    data: {
      ...(t.data ?? NO_TABLE),
      building_land_source: t.data ? partSource(GENESIS) : null,
      building_land_note: t.note,
      standard_land_values: b.data,
      standard_land_values_note: b.note,
    },
    meta: { table: LAND_TABLE },
  };
};
