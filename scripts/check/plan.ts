import { CITY_BY_SLUG, type City } from '../../src/cities/register.ts';
import { coveredCities, primariesOf, type DataType, type StandInSource } from '../../src/core/data-type.ts';
import { exampleForm, forCity, forParams, type Form } from '../../src/core/forms.ts';
import type { SourceDecl } from '../../src/core/source.ts';
import type { Catalog } from '../../src/catalog/index.ts';

/**
 * One check: a data type asked for one city (or, for a global type, one parameter set), the way
 * the service would answer it. `declared` is what the pipeline runs; `source` is the upstream
 * that answers (a variant's or the fallback's where one answers).
 */
export interface CheckRow {
  type: string;
  city: City | null;
  params: Record<string, string>;
  declared: DataType;
  source: SourceDecl;
  /** How this source comes to answer: the type's own, a per-city/per-value variant, or its keyless fallback. */
  via: 'main' | 'variant' | 'fallback';
}

export interface PlanOptions {
  /** Only these data types (all when empty). */
  types?: readonly string[];
  /** Only data types answered by these sources (all when empty). */
  sources?: readonly string[];
  /** Further cities, asked for every per-city type that covers them and needs no city-specific parameter. */
  cities?: readonly City[];
}

/** What answers a data type in this deployment: the type itself, its fallback when the main source is unusable, or null. */
export type Answering = (form: Form) => Form | null;

/**
 * The checks of a catalog: every data type for its declared example city (the city its fixtures
 * model) and any further cities asked for; every variant source for one of its cities or values;
 * every keyless fallback for the example city, so that each upstream the service can call is
 * called at least once.
 */
export function planChecks(catalog: Catalog, answering: Answering, opts: PlanOptions = {}): CheckRow[] {
  const rows: CheckRow[] = [];
  // The cities each source's fixtures model: the example cities of the types it answers.
  const modelled = new Map<string, Set<string>>();
  for (const dt of catalog.all)
    if (dt.example.city) {
      const id = exampleForm(dt).source.id;
      (modelled.get(id) ?? modelled.set(id, new Set()).get(id)!).add(dt.example.city);
    }
  for (const dt of catalog.all) {
    if (opts.types?.length && !opts.types.includes(dt.type)) continue;
    for (const row of rowsOf(dt, answering, opts.cities ?? [], modelled)) {
      if (opts.sources?.length && !opts.sources.includes(row.source.id)) continue;
      rows.push(row);
    }
  }
  return rows;
}

function rowsOf(dt: DataType, answering: Answering, extra: readonly City[], modelled: ReadonlyMap<string, ReadonlySet<string>>): CheckRow[] {
  const params = { ...(dt.example.params ?? {}) };
  const rows: CheckRow[] = [];
  const seen = new Set<string>();
  const add = (city: City | null, p: Record<string, string>, declared: DataType, via: CheckRow['via']) => {
    const chosen = city ? forCity(declared, city.slug) : forParams(declared, p);
    const source = (answering(chosen) ?? chosen).source;
    const key = `${city?.slug ?? '-'}|${source.id}`;
    if (seen.has(key)) return;
    seen.add(key);
    rows.push({ type: dt.type, city, params: p, declared, source, via });
  };
  if (dt.scope === 'global') {
    add(null, params, dt, 'main');
    for (const r of primariesOf(dt)) {
      const value = r.for?.[0];
      if (value !== undefined && dt.variantParam) add(null, { ...params, [dt.variantParam]: value }, dt, 'variant');
    }
  } else {
    const example = CITY_BY_SLUG.get(dt.example.city ?? '');
    if (example) add(example, params, dt, primariesOf(dt).some((r) => r.for?.includes(example.slug)) ? 'variant' : 'main');
    const covered = coveredCities(dt);
    // A required parameter names something in one city (a stop, a trip): other cities cannot reuse it.
    const portable = !(dt.params ?? []).some((p) => p.required);
    for (const city of portable ? extra : []) if (!covered || covered.includes(city.slug)) add(city, params, dt, 'main');
    for (const v of primariesOf(dt).filter((r) => r.for)) {
      const planned = rows.some((r) => r.city && v.for?.includes(r.city.slug));
      // A city of the primary that is another type's example for the same source, else its first city.
      const pick = v.for?.find((c) => modelled.get(v.source.id)?.has(c)) ?? v.for?.[0];
      const city = planned ? null : CITY_BY_SLUG.get(pick ?? '');
      if (city && portable) add(city, params, dt, 'variant');
    }
  }
  const example = CITY_BY_SLUG.get(dt.example.city ?? '') ?? null;
  for (const s of dt.sources)
    if ((s.role === 'stand-in' || s.role === 'failover') && (example || dt.scope === 'global')) rows.push(...standInRow(dt, s, example, params, seen));
  return rows;
}

/**
 * The stand-in (or failover) asked directly, even while the primary it stands in for answers: a
 * type whose only primary is the stand-in (with the type's parts), under its own type key
 * (`type~source`), so it gets its own cache entry beside the primary's answer.
 */
function standInRow(dt: DataType, standIn: StandInSource, city: City | null, params: Record<string, string>, seen: Set<string>): CheckRow[] {
  const key = `${city?.slug ?? '-'}|${standIn.source.id}`;
  if (seen.has(key)) return [];
  seen.add(key);
  const { note: _note, for: _for, ...answering } = standIn;
  const parts = dt.sources.filter((s) => s.role === 'part');
  const declared: DataType = { ...dt, type: `${dt.type}~${standIn.source.id}`, sources: [{ ...answering, role: 'primary' }, ...parts] };
  return [{ type: dt.type, city, params, declared, source: standIn.source, via: 'fallback' }];
}
