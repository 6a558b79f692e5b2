import { CITIES } from '../cities/register.ts';
import { resolveCity } from '../cities/resolve.ts';
import { coveredCities, examplePath, fillTemplate, routePath, toolOf, GROUP_LABELS, type DataType, type Group } from '../core/data-type.ts';
import { forCity, formsOf, mainForm, type Form } from '../core/forms.ts';
import { mapLimit } from '../core/limit.ts';
import { ProblemError } from '../core/problem.ts';
import { toBerlinIso } from '../core/time.ts';
import type { Envelope, ServiceContext } from './context.ts';
import { sourceStates, stateOfForm, type SourceState } from '../pipeline/source-state.ts';
import type { Peeked } from '../pipeline/run.ts';

/**
 * State of one matrix cell: what a request for that city and data type would meet on this server.
 * A covered cell's source is `answering` (its latest call succeeded), `failing` (latest call
 * failed, breaker open or format drift), `untried` (usable, not called since start) or `disabled`;
 * `configured` counts the first three. `no_recording` is the demo's: its recordings are of each
 * type's example city, so another city may answer no_data (the per-city page shows what each answers).
 */
export type CellState = SourceState | 'not_covered' | 'no_recording';

/** In demo mode, the one city a type's recordings are certainly of (its example city); null otherwise. */
function demoRecorded({ rt }: Pick<ServiceContext, 'rt'>, dt: DataType): string | null {
  return rt.config.demo ? (dt.example.city ?? null) : null;
}

/** Per-city data types in topic order (the matrix's columns). */
function perCityTypes({ rt }: Pick<ServiceContext, 'rt'>): DataType[] {
  const order = Object.keys(GROUP_LABELS) as Group[];
  return rt.catalog.all.filter((dt) => dt.scope !== 'global').sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
}

/**
 * Per primary of each data type: the state of the source that answers it here (its stand-in's
 * when that answers). Look a city's state up with `forCity(dt, slug)`.
 */
async function typeStates({ rt }: Pick<ServiceContext, 'rt'>, types: DataType[]): Promise<Map<Form, SourceState>> {
  const sources = await sourceStates(rt);
  const forms = types.flatMap(formsOf);
  return new Map(forms.map((form) => [form, stateOfForm(rt, form, sources)]));
}

function cellState(dt: DataType, slug: string, states: Map<Form, SourceState>, recorded: string | null): CellState {
  const cities = coveredCities(dt);
  if (cities && !cities.includes(slug)) return 'not_covered';
  const source = states.get(forCity(dt, slug))!;
  if (source !== 'disabled' && recorded !== null && recorded !== slug) return 'no_recording';
  return source;
}

/** Which data type is available in which city, generated from the catalog and the sources' current state. */
async function coverageRows(ctx: Pick<ServiceContext, 'rt'>) {
  const { rt } = ctx;
  const types = perCityTypes(ctx);
  const states = await typeStates(ctx, types);
  return types.map((dt) => {
    const cities = coveredCities(dt);
    const main = mainForm(dt);
    return {
      type: dt.type,
      label: dt.label,
      label_en: dt.label_en,
      group: GROUP_LABELS[dt.group],
      path: routePath(dt),
      tool: toolOf(dt),
      // The default primary's (it answers every city no other primary names).
      source: main.source.id,
      tier: main.source.tier,
      enabled: rt.answering(main) !== null,
      source_state: states.get(main)!,
      answered_by: rt.answering(main)?.source.id ?? null,
      // Cities another primary answers for, each with that source's state.
      variants: formsOf(dt)
        .filter((form) => form.answer.for)
        .map((form) => ({
          cities: [...form.answer.for!].sort(),
          source: form.source.id,
          tier: form.source.tier,
          source_state: states.get(form)!,
          answered_by: rt.answering(form)?.source.id ?? null,
        })),
      partial: cities !== null,
      covered_cities: cities ? [...cities].sort() : CITIES.map((c) => c.slug),
      covered_count: cities ? cities.length : CITIES.length,
      note: dt.coverage?.note ?? (dt.fixedCity ? `served for ${dt.fixedCity} only` : null),
      ...(ctx.rt.config.demo ? { demo_recorded_city: demoRecorded(ctx, dt) } : {}),
    };
  });
}

type Row = Awaited<ReturnType<typeof coverageRows>>[number];

function summary(types: Row[], { rt }: Pick<ServiceContext, 'rt'>) {
  const cells = CITIES.flatMap((c) => types.map((t) => cellOf(t, c.slug)));
  const count = (s: CellState) => cells.filter((x) => x === s).length;
  const configured = count('answering') + count('untried') + count('failing') + count('no_recording');
  return {
    // The matrix itself is always there; but when every configured cell's source is failing, nothing here answers.
    source_status: configured > 0 && count('failing') === configured ? 'error' : 'ok',
    data_types: rt.catalog.counts.per_city,
    catalog: rt.catalog.counts.text,
    partial: types.filter((t) => t.partial).length,
    cities_total: CITIES.length,
    cells: {
      total: cells.length,
      configured,
      answering: count('answering'),
      untried: count('untried'),
      failing: count('failing'),
      disabled: count('disabled'),
      not_covered: count('not_covered'),
      ...(rt.config.demo ? { no_recording: count('no_recording') } : {}),
    },
    ...(rt.config.demo ? { demo: true } : {}),
  };
}

function cellOf(t: Row, slug: string): CellState {
  if (t.partial && !t.covered_cities.includes(slug)) return 'not_covered';
  const state = t.variants.find((v: Row['variants'][number]) => v.cities.includes(slug))?.source_state ?? t.source_state;
  if (state !== 'disabled' && t.demo_recorded_city && t.demo_recorded_city !== slug) return 'no_recording';
  return state;
}

export async function coverage(ctx: Pick<ServiceContext, 'rt'>): Promise<Envelope> {
  const types = await coverageRows(ctx);
  return { data: types, meta: summary(types, ctx), attribution: null };
}

/** The request a user would make for this type in this city: the declared example's parameters where required. */
function cityPath(dt: DataType, slug: string): string {
  if (dt.example.city === slug) return examplePath(dt);
  const base = fillTemplate(routePath(dt), { city: slug, ...dt.example.params });
  const required = (dt.params ?? []).filter((p) => p.required && !routePath(dt).includes(`{${p.name}}`));
  const query = required.flatMap((p) => {
    const v = p.enum?.[0] ?? dt.example.params?.[p.name];
    return v === undefined ? [] : [[p.name, String(v)] as [string, string]];
  });
  return query.length ? `${base}?${new URLSearchParams(query).toString()}` : base;
}

export interface CityCoverageItem {
  type: string;
  label_en: string;
  group: string;
  path: string;
  cell: CellState;
  source: string;
  source_status: string;
  cache_status?: string;
  /** When the cached answer was fetched. */
  fetched_at?: string;
  note?: string;
}

/** What the cell of one data type says without a request: the peeked cache entry, or honestly nothing. */
function peekedItem(base: Omit<CityCoverageItem, 'source_status'>, peeked: Peeked): CityCoverageItem {
  switch (peeked.kind) {
    case 'gated':
      return { ...base, source_status: peeked.outcome.status };
    case 'cached':
      return { ...base, source_status: peeked.status, cache_status: peeked.cacheStatus, fetched_at: toBerlinIso(peeked.fetchedAt) };
    case 'stored':
      return { ...base, source_status: 'not_checked', note: 'read per request from what its job stored; the link reads it' };
    case 'none':
      return { ...base, source_status: 'not_checked', note: 'not fetched yet; the link fetches it' };
  }
}

/**
 * One city: every per-city data type with its link and what a request meets now, from the gate
 * and the cache alone (Pipeline.peek). Nothing here starts an upstream call: a type with nothing
 * cached says so (`not_checked`), and its link is the request that fetches it.
 */
export async function cityCoverage(
  ctx: ServiceContext,
  raw: string,
): Promise<Envelope & { data: { city: { slug: string; name: string }; items: CityCoverageItem[] } }> {
  const { rt, pipeline } = ctx;
  const city = resolveCity(raw);
  const types = perCityTypes(ctx);
  const states = await typeStates(ctx, types);
  const items = await mapLimit(types, 6, async (dt): Promise<CityCoverageItem> => {
    const cell = cellState(dt, city.slug, states, demoRecorded(ctx, dt));
    const path = cityPath(dt, city.slug);
    const form = forCity(dt, city.slug);
    const base = { type: dt.type, label_en: dt.label_en, group: GROUP_LABELS[dt.group], path, cell, source: rt.answering(form)?.source.id ?? form.source.id };
    if (cell === 'not_covered') return { ...base, source_status: 'not_covered', note: dt.coverage?.note };
    // An id in the path (a trip, a route) belongs to one city's feed: only the example city has one to try.
    const ids = [...routePath(dt).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((k) => k !== 'city');
    if (ids.length && dt.example.city !== city.slug)
      return { ...base, path: examplePath(dt), source_status: 'not_checked', note: `needs a ${ids.join(', ')} of ${city.name}; the link shows the example` };
    const query = Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? ''));
    return pipeline.peek(dt, city, query).then(
      (peeked) => peekedItem(base, peeked),
      (err: unknown) => ({ ...base, source_status: 'error', note: err instanceof ProblemError ? err.code : 'failed' }),
    );
  });
  const statuses: Record<string, number> = {};
  for (const i of items) statuses[i.source_status] = (statuses[i.source_status] ?? 0) + 1;
  return {
    data: { city: { slug: city.slug, name: city.name }, items },
    meta: { source_status: 'ok', city: city.slug, statuses, generated_at: toBerlinIso(new Date()), ...(rt.config.demo ? { demo: true } : {}) },
    attribution: null,
  };
}

export { coverageRows, summary, cellOf };
