import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

const optText = z.string().nullish();
const optNumber = z.number().nullish();

/**
 * The Wikibase JSON model as served by Special:EntityData/{QID}.json, only the statements read here: the
 * datavalue fields of quantity (amount, unit), time (time, precision) and globecoordinate (latitude, longitude,
 * globe). An item's answer holds hundreds of other statements, so the item's own members are checked, not the
 * whole answer.
 */
const SnakShape = z.looseObject({
  snaktype: z.enum(['value', 'somevalue', 'novalue']),
  datavalue: z
    .looseObject({
      value: z.looseObject({
        amount: z.union([z.string(), z.number()]).nullish(),
        unit: optText,
        time: optText,
        precision: optNumber,
        latitude: optNumber,
        longitude: optNumber,
        globe: optText,
      }),
    })
    .nullish(),
});
const StatementShape = z.looseObject({
  mainsnak: SnakShape,
  rank: z.enum(['preferred', 'normal', 'deprecated']),
  qualifiers: z.looseObject({ P585: z.array(SnakShape).nullish() }).nullish(),
});
type Statement = z.output<typeof StatementShape>;
const StatementsShape = z.array(StatementShape).nullish();
const label = z.looseObject({ value: z.string() }).nullish();
const EntityShape = z.looseObject({
  id: optText,
  modified: optText,
  labels: z.looseObject({ de: label, en: label }).nullish(),
  claims: z.looseObject({ P1082: StatementsShape, P625: StatementsShape, P2046: StatementsShape }).nullish(),
});
const EntitiesShape = z.looseObject({ entities: z.record(z.string(), z.unknown()) });

export interface EntityDataBody {
  entities?: Record<string, unknown>;
}

const ENTITY = 'http://www.wikidata.org/entity/';
/** Area units accepted for P2046, as factors to km²; other units are dropped. */
const AREA_UNITS: Record<string, number> = {
  [`${ENTITY}Q712226`]: 1, // square kilometre
  [`${ENTITY}Q35852`]: 0.01, // hectare
  [`${ENTITY}Q25343`]: 1e-6, // square metre
};
const EARTH = `${ENTITY}Q2`;

export interface CityBase {
  qid: string;
  name: string | null;
  population: number | null;
  /** The population's point in time (P585), as precise as Wikidata states it: YYYY, YYYY-MM or YYYY-MM-DD. */
  population_date: string | null;
  area_km2: number | null;
  lat: number | null;
  lon: number | null;
  entity_modified_at: string | null;
  wikidata_url: string;
}

/**
 * Population, area and coordinates of one item. A redirected QID is answered under its target
 * id, so the only entity is taken when the requested one is absent.
 */
export function parseCityBase(body: EntityDataBody, qid: string): CityBase {
  const { entities } = shaped(EntitiesShape, body, 'Wikidata EntityData');
  const key = qid in entities ? qid : Object.keys(entities)[0];
  if (key === undefined) throw new UpstreamError('parse', `Wikidata EntityData $.entities: no entity ${qid}`);
  const entity = shaped(EntityShape, entities[key], 'Wikidata EntityData', ['entities', key]);
  const claims = entity.claims ?? {};
  const pop = population(claims.P1082 ?? []);
  const coord = usable(claims.P625 ?? [])
    .map((s) => s.mainsnak.datavalue!.value)
    .find((v) => (v.globe ?? EARTH) === EARTH && Number.isFinite(v.latitude) && Number.isFinite(v.longitude));
  return {
    qid: entity.id ?? qid,
    name: entity.labels?.de?.value ?? entity.labels?.en?.value ?? null,
    population: pop?.amount ?? null,
    population_date: pop?.date ?? null,
    area_km2: area(claims.P2046 ?? []),
    lat: coord?.latitude ?? null,
    lon: coord?.longitude ?? null,
    entity_modified_at: entity.modified ? toBerlinIso(entity.modified) : null,
    wikidata_url: `https://www.wikidata.org/wiki/${entity.id ?? qid}`,
  };
}

/** Non-deprecated statements with a value, preferred rank first (stable otherwise). */
function usable(statements: Statement[]): Statement[] {
  const ok = statements.filter((s) => s.rank !== 'deprecated' && s.mainsnak.snaktype === 'value' && s.mainsnak.datavalue);
  return [...ok.filter((s) => s.rank === 'preferred'), ...ok.filter((s) => s.rank !== 'preferred')];
}

/**
 * The latest figure by its point in time (P585); undated statements lose against dated ones,
 * and on equal dates the preferred rank wins.
 */
function population(statements: Statement[]): { amount: number; date: string | null } | null {
  let best: { amount: number; sortKey: string; date: string | null } | null = null;
  for (const s of usable(statements)) {
    const amount = Number(s.mainsnak.datavalue!.value?.amount);
    if (!Number.isFinite(amount)) continue;
    const t = s.qualifiers?.P585?.find((q) => q.snaktype === 'value' && q.datavalue)?.datavalue?.value;
    const sortKey = typeof t?.time === 'string' ? t.time.replace(/^\+/, '') : '';
    if (!best || sortKey > best.sortKey) best = { amount, sortKey, date: typeof t?.time !== 'string' ? null : wikidataDate(t.time, t.precision ?? 0) };
  }
  return best ? { amount: best.amount, date: best.date } : null;
}

function area(statements: Statement[]): number | null {
  for (const s of usable(statements)) {
    const v = s.mainsnak.datavalue!.value;
    const factor = typeof v?.unit === 'string' ? AREA_UNITS[v.unit] : undefined;
    const amount = Number(v?.amount);
    if (factor !== undefined && Number.isFinite(amount)) return Math.round(amount * factor * 100) / 100;
  }
  return null;
}

/** "+2024-12-31T00:00:00Z" at precision 11 (day), 10 (month) or 9 (year). */
export function wikidataDate(time: string, precision: number): string | null {
  const m = /^\+?(\d{4,})-(\d{2})-(\d{2})T/.exec(time ?? '');
  if (!m) return null;
  if (precision >= 11) return `${m[1]}-${m[2]}-${m[3]}`;
  if (precision === 10) return `${m[1]}-${m[2]}`;
  return m[1] ?? null;
}
