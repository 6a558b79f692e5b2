import type { Adapter } from '../../core/data-type.ts';
import type { LandValuesRecord } from '../../core/records/land.ts';
import { GENESIS } from './source.ts';
import { regionFor } from './region.ts';
import { latestWithData, rowsOfRegion, type FieldDecl, type Values } from './select.ts';
import { GenesisClient, type TableAnswer } from './tablefile.ts';

/** Kaufwerte für Bauland per district (the nationwide comparable table; no municipal twin exists). */
export const LAND_TABLE = '61511-01-03-4';
const PERIODS = 3;
const WINDOWS = { freshSeconds: 86_400, staleSeconds: 30 * 86_400 };

const BORIS_NOTE =
  'Not read: the states publish Bodenrichtwerte through their own BORIS services in differing formats (several without an open ' +
  'licence); this answer is the nationwide comparable building-land price table of the statistical offices only.';

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

/**
 * The newest year with a value of the building-land price table for the city's own district.
 * A city inside a district has no row of its own and answers no_data, never the district's value.
 */
export const landValues: Adapter<LandValuesRecord> = async (ctx) => {
  const rule = regionFor(ctx.city, LAND_TABLE);
  const meta = { table: LAND_TABLE };
  if (!rule.ok) return { data: null, status: 'no_data', meta: { ...meta, reason: rule.reason } };
  const { variable, key } = rule.region;
  const client = new GenesisClient(ctx.http, ctx.store, GENESIS.maxResponseBytes ?? ctx.config.maxResponseBytes);
  const answer = await ctx.cached<TableAnswer>(`tablefile:${LAND_TABLE}:${variable}:${key}:${PERIODS}`, WINDOWS, () =>
    client.table({ table: LAND_TABLE, variable, key, periods: PERIODS }),
  );
  if (answer.status === 'empty')
    return { data: null, status: 'no_data', meta: { ...meta, reason: `${LAND_TABLE} holds nothing for ${key}: ${answer.message}` } };
  const rec = latestWithData(rowsOfRegion(answer.rows, key), { fields: FIELDS });
  if (!rec)
    return {
      data: null,
      status: 'no_data',
      meta: { ...meta, reason: `every value of ${LAND_TABLE} for ${key} in the newest ${PERIODS} years is a placeholder` },
    };
  return {
    data: {
      year: rec.period,
      region_key: rec.region_key ?? key,
      region_name: rec.region_name,
      building_land: sales(rec.values, 'building_land'),
      building_ready_land: sales(rec.values, 'building_ready_land'),
      standard_land_values: BORIS_NOTE,
    },
    meta,
  };
};
