import type { City } from '../cities/register.ts';
import type { Config } from '../config.ts';
import type { SourceDecl } from './source.ts';
import type { SourceHttp } from './adapter-http.ts';
import type { Store } from './store.ts';
import type { ParamDecl } from './params.ts';
import { published, z } from './schema.ts';

export type Group = 'environment' | 'transport' | 'energy' | 'society' | 'economy' | 'safety' | 'places' | 'city';

export const GROUP_LABELS: Record<Group, string> = {
  environment: 'Environment and weather',
  transport: 'Transport and mobility',
  energy: 'Energy',
  society: 'Population and society',
  economy: 'Economy and finance',
  safety: 'Safety and law',
  places: 'Places and facilities',
  city: 'City and base data',
};

/** What an adapter hands back: the canonical record (normalised afterwards by the pipeline). */
export interface AdapterResult<T = unknown> {
  data: T | null;
  /** `no_data`: the source answered but has nothing for this city/query. */
  status?: 'ok' | 'no_data';
  /** Timestamp of the data itself (observation, feed header), zoned ISO. */
  as_of?: string | null;
  /** Extra meta members, e.g. why a value is missing. */
  meta?: Record<string, unknown>;
}

/** How an answer relates to the cache (meta.cache_status, Cache-Status header). */
export type CacheStatus = 'HIT' | 'MISS' | 'STALE' | 'STALE-ON-ERROR';

export interface CacheWindows {
  /** Served as HIT for this long after a fetch. */
  freshSeconds: number;
  /** Then served as STALE (with one background refresh) for this long. */
  staleSeconds: number;
}

export interface FetchContext {
  /** The resolved city (global data types get a GlobalFetchContext without one). */
  city: City;
  params: Record<string, unknown>;
  http: SourceHttp;
  store: Store;
  config: Config;
  now: Date;
  signal: AbortSignal;
  /** Runs another data type through the pipeline (cached), for composite types. */
  lookup(type: string, city: City, params?: Record<string, unknown>): Promise<unknown>;
  /**
   * A shared upstream sub-resource (e.g. a national station list) fetched through the same
   * cache, single-flight and breaker as data types, keyed per source by `name`. Adapters use
   * this instead of caching anything themselves.
   */
  cached<T>(name: string, windows: CacheWindows, fetch: () => Promise<T>): Promise<T>;
  /**
   * One part of the answer read from another source (e.g. official figures next to OSM
   * counts): `read` gets this context with that source's http client and shared cache, behind
   * that source's breaker. A source that is switched off or lacks credentials is never called;
   * any failure of the part comes back as a reason, so the rest of the answer still stands.
   */
  part<T>(source: SourceDecl, read: (ctx: FetchContext) => Promise<T>): Promise<PartResult<T>>;
}

/** What a part from another source gave: its value, or why there is none (`disabled`: which setting unlocks it). */
export type PartResult<T> = { status: 'ok'; value: T } | { status: 'disabled' | 'unavailable'; reason: string };

/** Context of a global data type (not per city, e.g. a station board by EVA number). */
export type GlobalFetchContext = Omit<FetchContext, 'city'>;

/** Fetch + parse of one upstream into canonical data; lives in its source module. */
export type Adapter<T> = (ctx: FetchContext) => Promise<AdapterResult<T>>;
export type GlobalAdapter<T> = (ctx: GlobalFetchContext) => Promise<AdapterResult<T>>;

export interface Coverage {
  /** Canonical slugs where the data type is available; others answer not_covered. */
  cities: readonly string[];
  note: string;
}

export interface Fallback {
  source: SourceDecl;
  adapter: Adapter<unknown>;
  cache?: CacheWindows | 'stored';
  /** What the fallback answers with, compared with the main source (shown in meta and the docs). */
  note: string;
}

/**
 * Another source answering the same data type for some cities (e.g. Köln's traffic state next to
 * Hamburg's) or, on a global type, for some values of its `variantParam` (e.g. one charging data
 * provider of /live/{operator}/charging): same type, path and record; its own source (breaker,
 * status, attribution, variables), adapter and cache. Its cities count as covered besides
 * `coverage.cities`.
 */
export interface Variant {
  /** Canonical slugs this source answers for (per-city types); the main source answers every other covered city. */
  cities?: readonly string[];
  /** Values of the type's `variantParam` this source answers for (global types). */
  values?: readonly string[];
  source: SourceDecl;
  adapter: Adapter<unknown>;
  cache?: CacheWindows;
}

/** Where the docs' example answer (and the demo) come from: the city the fixtures model. */
export interface Example {
  /** Canonical slug (per-city types). */
  city?: string;
  /** Path and query parameters of the example request. */
  params?: Record<string, string>;
}

/**
 * One data type, declared once. Its route, OpenAPI operation (with the typed `data`), overview
 * row, coverage cells, MCP reach and compare resource are all derived from this object. It is
 * a declaration only: the adapter it names lives in the source module.
 */
export interface DataType {
  type: string;
  label: string;
  label_en: string;
  group: Group;
  summary: string;
  description?: string;
  /** Route template; `{slug}` or `{city}` names the city. Default `/api/v1/cities/{slug}/<type>`. */
  path?: string;
  /** Deprecated paths answering exactly like `path`, with Deprecation and Link headers. */
  aliases?: string[];
  source: SourceDecl;
  params?: ParamDecl[];
  /**
   * The schema of `data`: the record, or for `list: true` one list item. Canonical names only;
   * the deprecated twins are added by `published()` in core/schema.ts. Built on first use
   * (`lazy()` in core/schema.ts): serving answers needs no schema.
   */
  record: () => z.ZodType;
  /** Cache windows for fetched types; `stored` types read what a job wrote and are not cached. */
  cache: CacheWindows | 'stored';
  /** For `stored` types: the job (jobs/registry) that writes what the adapter reads. */
  job?: string;
  /** `data` is an array (or the array under this key of the record) that pages. */
  list?: true | string;
  coverage?: Coverage;
  /** Live envelope markers. */
  live?: { refreshSeconds: number };
  /**
   * Offered as a compare resource; `summarise` shrinks the data (e.g. aggregates only) and
   * `value` names the numeric field `sort=value` orders by.
   */
  compare?: { resource: string; summarise?: (data: unknown) => unknown; value?: string };
  /** Overview highlight slot. */
  highlight?: 'weather' | 'air';
  /**
   * For a literal per-city path (e.g. /api/v1/live/hamburg/departures): the city it serves.
   * The type then counts as covering only that city.
   */
  fixedCity?: string;
  /** `global`: the path has no city (e.g. /api/v1/stations/{eva}/departures). Default `city`. */
  scope?: 'city' | 'global';
  example: Example;
  /**
   * An official keyless source that answers when `source` is unusable (credentials missing or
   * switched off): same record schema, its own source and attribution; meta.answered_by names it.
   */
  fallback?: Fallback;
  /** Per-city (or per-parameter) source variants: these cities or values are answered by another source (see Variant). */
  variants?: Variant[];
  /** Global types: the path parameter whose value picks a variant (e.g. `operator`). */
  variantParam?: string;
  /** An MCP tool of its own (e.g. `departures`) instead of its group's tool. */
  tool?: string;
  adapter: Adapter<unknown>;
}

type Declared = Omit<DataType, 'record' | 'adapter' | 'list' | 'scope' | 'fallback' | 'variants'>;
type DataOf<S extends z.ZodType, L> = L extends true ? z.infer<S>[] : z.infer<S>;

/**
 * Declares a per-city data type; the compiler checks that the adapter returns what the record
 * schema describes (a list of it for `list: true`).
 */
export function dataType<S extends z.ZodType, L extends true | string | undefined = undefined>(
  dt: Declared & {
    record: () => S;
    list?: L;
    adapter: Adapter<DataOf<S, L>>;
    fallback?: Omit<Fallback, 'adapter'> & { adapter: Adapter<DataOf<S, L>> };
    variants?: (Omit<Variant, 'adapter'> & { adapter: Adapter<DataOf<S, L>> })[];
  },
): DataType {
  return dt as DataType;
}

/** Declares a global data type; its adapter never sees a city. */
export function globalType<S extends z.ZodType, L extends true | string | undefined = undefined>(
  dt: Omit<Declared, 'coverage' | 'highlight' | 'fixedCity'> & {
    record: () => S;
    list?: L;
    adapter: GlobalAdapter<DataOf<S, L>>;
    variants?: (Omit<Variant, 'adapter' | 'cities'> & { values: readonly string[]; adapter: GlobalAdapter<DataOf<S, L>> })[];
  },
): DataType {
  return { ...dt, scope: 'global' } as DataType;
}

/**
 * The data type as it answers with the main source unusable: the fallback's source, adapter
 * and cache in place of the main ones (same type, path, record and coverage).
 */
export function viaFallback(dt: DataType): DataType | null {
  if (!dt.fallback) return null;
  return { ...dt, source: dt.fallback.source, adapter: dt.fallback.adapter, cache: dt.fallback.cache ?? dt.cache };
}

/** One derived data type per variant, so that per-type caches (runtime fallbacks, hit sources) keep working by identity. */
const variantTypes = new WeakMap<Variant, DataType>();

/**
 * The data type as it answers in `slug`: the variant's source, adapter and cache where a variant
 * names the city, else the type itself. The variant answers on its own, without the main
 * source's fallback.
 */
export function forCity(dt: DataType, slug: string): DataType {
  const v = dt.variants?.find((x) => x.cities?.includes(slug));
  return v ? variantForm(dt, v) : dt;
}

/** A global type as it answers for a value of its `variantParam` (see forCity). */
export function forParam(dt: DataType, params: Record<string, unknown>): DataType {
  const value = dt.variantParam ? params[dt.variantParam] : undefined;
  const v = typeof value === 'string' ? dt.variants?.find((x) => x.values?.includes(value)) : undefined;
  return v ? variantForm(dt, v) : dt;
}

/** The data type as one of its variants answers: the variant's source, adapter and cache. */
export function variantForm(dt: DataType, v: Variant): DataType {
  let t = variantTypes.get(v);
  if (!t) {
    const { variants: _variants, fallback: _fallback, ...rest } = dt;
    t = { ...rest, source: v.source, adapter: v.adapter, cache: v.cache ?? dt.cache };
    variantTypes.set(v, t);
  }
  return t;
}

/** Every source a data type answers from besides its fallback: its own and its variants'. */
export function mainSources(dt: DataType): SourceDecl[] {
  return [...new Set([dt.source, ...(dt.variants ?? []).map((v) => v.source)])];
}

/** The docs' line naming which source answers which cities, for a type with variants (else null). */
export function variantsNote(dt: DataType): string | null {
  if (!dt.variants?.length) return null;
  const parts = dt.variants.map((v) => `${[...(v.cities ?? v.values ?? [])].join(', ')}: ${v.source.name} (${v.source.license}, source ${v.source.id})`);
  return `Sources per ${dt.variantParam ?? 'city'}: ${parts.join('; ')}; elsewhere ${dt.source.name} (${dt.source.license}, source ${dt.source.id}).`;
}

/** Cities a data type covers (its coverage plus its variants' cities), or null for all. */
export function coveredCities(dt: DataType): readonly string[] | null {
  if (dt.fixedCity) return [dt.fixedCity];
  if (!dt.coverage) return null;
  const extra = (dt.variants ?? []).flatMap((v) => v.cities ?? []).filter((c) => !dt.coverage!.cities.includes(c));
  return extra.length ? [...dt.coverage.cities, ...extra] : dt.coverage.cities;
}

export function routePath(dt: DataType): string {
  return dt.path ?? `/api/v1/cities/{slug}/${dt.type}`;
}

/** Fills a route template's `{name}` segments, each value percent-encoded. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(values[k] ?? `{${k}}`));
}

/** The schema of the answer's `data` as it is sent (a list for list types); null is allowed by the envelope. */
export function dataSchemaOf(dt: DataType): z.ZodType {
  const item = published(dt.record());
  return dt.list === true ? z.array(item) : item;
}

/**
 * MCP reaches data types through one tool per topic group (plus a few tools of their own, such
 * as departures); the overview names that tool. Computed here so that services need no mcp/.
 */
export const GROUP_TOOLS: Record<Group, string> = {
  environment: 'environment',
  transport: 'transport',
  energy: 'energy',
  society: 'society',
  economy: 'economy',
  safety: 'safety',
  places: 'places',
  city: 'city_data',
};

export function toolOf(dt: DataType): string {
  return dt.tool ?? GROUP_TOOLS[dt.group];
}

/** The MCP tools that are not data-type tools: city lookup, overview, comparison, source state. */
export const FIXED_TOOLS = ['find_city', 'city_overview', 'compare_cities', 'sources'] as const;

/** Every MCP tool name of a catalog, in the order tools/list shows them: fixed, group, own tools. */
export function toolNamesOf(types: readonly DataType[]): string[] {
  const used = new Set(types.map(toolOf));
  const groups = Object.values(GROUP_TOOLS).filter((t) => used.has(t));
  const own = [...used].filter((t) => !groups.includes(t));
  return [FIXED_TOOLS[0], FIXED_TOOLS[1], ...groups, ...own, ...FIXED_TOOLS.slice(2)];
}

/** The request of the declared example: path filled in, other example parameters as the query. */
export function examplePath(dt: DataType): string {
  const values: Record<string, string> = { ...(dt.example.city ? { slug: dt.example.city, city: dt.example.city } : {}), ...dt.example.params };
  const template = routePath(dt);
  const inPath = new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const query = Object.entries(dt.example.params ?? {}).filter(([k]) => !inPath.has(k));
  const qs = query.length ? '?' + new URLSearchParams(query).toString() : '';
  return fillTemplate(template, values) + qs;
}

/** The OpenAPI operationId of a data type's route. */
export function operationIdOf(dt: DataType): string {
  return dt.type.replace(/-/g, '_');
}
