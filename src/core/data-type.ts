import type { City } from '../cities/register.ts';
import type { Config } from './config.ts';
import type { SourceDecl } from './source.ts';
import type { ScheduledJob } from './job.ts';
import type { TypeRef } from './type-ref.ts';

export { typeRef, type TypeRef } from './type-ref.ts';
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
  /**
   * Another data type's answer for a city through the pipeline (its cache, settings and stand-in),
   * for types that compose: `ref` must be one of the reading's declared `lookups`. Null when that
   * type has nothing (not ok) or fails.
   */
  lookup<T>(ref: TypeRef<T>, city: City, params?: Record<string, unknown>): Promise<T | null>;
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

/**
 * One source a data type reads: the one way a type combines sources. A type declares one or more
 * readings; each has its own source (settings, breaker, status, attribution, variables), adapter
 * and cache windows.
 *
 * - Which requests it answers: `cities` (per-city types) or `values` of the type's `variantParam`
 *   (global types, e.g. one charging data provider of /live/{operator}/charging); the reading
 *   without either answers every other request. Its cities count as covered.
 * - `standIn`: a keyless reading that answers in its place while its source is unusable (no
 *   credentials, switched off), or with `when: 'failing'` while its source fails (nothing cached
 *   and the fetch failed or its breakers are open); meta.answered_by names it. Each is a source
 *   of its own: settings, breakers, attribution, status.
 * - `parts`: further sources its adapter reads a part of the answer from (FetchContext.part),
 *   each behind its own settings, breaker and shared cache; a failing part comes back as a
 *   reason, so the rest of the answer stands.
 * - `lookups`: other data types its adapter composes with (FetchContext.lookup), through their
 *   own readings and cache.
 * - `jobs`: for stored readings, the jobs that write what the adapter reads.
 */
export interface Reading<A = Adapter<unknown>> {
  source: SourceDecl;
  adapter: A;
  /** Cache windows of this reading (default: the type's `cache`). */
  cache?: CacheWindows | 'stored';
  cities?: readonly string[];
  values?: readonly string[];
  standIn?: StandIn<A>;
  parts?: readonly SourceDecl[];
  /** Other data types its adapter looks up (FetchContext.lookup). */
  lookups?: readonly TypeRef<unknown>[];
  jobs?: readonly ScheduledJob[];
}

/**
 * A reading that answers while the reading it stands in for is unusable (`when: 'unusable'`, the
 * default) or failing (`when: 'failing'`: its source is usable but gave no answer and nothing is
 * cached), and what it answers with, compared with that one.
 */
export type StandIn<A = Adapter<unknown>> = Omit<Reading<A>, 'cities' | 'values' | 'standIn'> & { note: string; when?: 'unusable' | 'failing' };

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
 * a declaration only: the adapters its readings name live in the source modules.
 *
 * `source`, `adapter`, `parts` and `cache` are those of one reading: on the declared type its
 * first reading's, on a form (formOf) the answering reading's. Everything that tells or runs
 * "the source of this answer" reads them there.
 */
export interface DataType {
  type: string;
  label: string;
  label_en: string;
  group: Group;
  summary: string;
  description?: string;
  /** Route template; `{city}` names the city. Default `/api/v1/cities/{city}/<type>`. */
  path?: string;
  /** Deprecated paths answering exactly like `path`, with Deprecation and Link headers. */
  aliases?: string[];
  /** The sources it reads (see Reading); the first is its main one. */
  reads: readonly Reading[];
  params?: ParamDecl[];
  /**
   * The schema of `data`: the record, or for `list: true` one list item. Canonical names only;
   * the deprecated twins are added by `published()` in core/schema.ts. Built on first use
   * (`lazy()` in core/schema.ts): serving answers needs no schema.
   */
  record: () => z.ZodType;
  /** Cache windows for fetched types; `stored` types read what a job wrote and are not cached. */
  cache: CacheWindows | 'stored';
  /** `data` is an array (or the array under this key of the record) that pages. */
  list?: true | string;
  coverage?: Coverage;
  /** Live envelope markers. */
  live?: { refreshSeconds: number };
  /**
   * Offered as a Server-Sent Events stream although the envelope carries no live markers (warnings,
   * water levels, station boards). Every `live` type streams anyway: see `streamCadence`.
   */
  stream?: true;
  /**
   * Offered as a compare resource; `summarise` shrinks the data (e.g. aggregates only) and
   * `value` names the numeric field `sort=value` orders by.
   */
  compare?: { resource: string; summarise?: (data: unknown) => unknown; value?: string };
  /**
   * Overrides the derived formats (core/formats.ts: CSV for tables, GeoJSON for lists with
   * lat/lon), only where that derivation is wrong for the type.
   */
  formats?: { csv?: boolean; geojson?: boolean };
  /**
   * Recorded over time (GET …/{type}/history): which scalar fields, read from the summarised
   * data (compare's where the type has one), and where the upstream offers its past.
   */
  history?: HistoryDecl;
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
  /** Global types: the path parameter whose value picks a reading (e.g. `operator`). */
  variantParam?: string;
  /** An MCP tool of its own (e.g. `departures`) instead of its group's tool. */
  tool?: string;
  /** The source of this form's reading (see above). */
  source: SourceDecl;
  adapter: Adapter<unknown>;
  parts: readonly SourceDecl[];
  /** The data types this form's reading looks up. */
  lookups: readonly TypeRef<unknown>[];
  /** The jobs that write what this form's reading reads (stored readings). */
  jobs: readonly ScheduledJob[];
  /** The stand-in of this form's reading, if it has one. */
  standIn?: StandIn;
  /** On a stand-in form: the source it stands in for and its note. */
  standingInFor?: { source: SourceDecl; note: string };
}

type Declared = Omit<DataType, 'record' | 'list' | 'scope' | 'reads' | 'source' | 'adapter' | 'parts' | 'lookups' | 'jobs' | 'standIn' | 'standingInFor'>;
type DataOf<S extends z.ZodType, L> = L extends true ? z.infer<S>[] : z.infer<S>;

/** The declared type with its first reading's source, adapter, parts and stand-in. */
function declared(dt: Omit<DataType, 'source' | 'adapter' | 'parts' | 'lookups' | 'jobs'>): DataType {
  const main = dt.reads[0];
  if (!main) throw new Error(`data type ${dt.type} reads no source`);
  return {
    ...dt,
    source: main.source,
    adapter: main.adapter,
    parts: main.parts ?? [],
    lookups: main.lookups ?? [],
    jobs: main.jobs ?? [],
    ...(main.standIn ? { standIn: main.standIn } : {}),
  };
}

/**
 * Declares a per-city data type; the compiler checks that every reading's adapter returns what
 * the record schema describes (a list of it for `list: true`).
 */
export function dataType<S extends z.ZodType, L extends true | string | undefined = undefined>(
  dt: Declared & { record: () => S; list?: L; reads: readonly Reading<Adapter<DataOf<S, L>>>[] },
): DataType {
  return declared(dt as unknown as Omit<DataType, 'source' | 'adapter' | 'parts' | 'lookups' | 'jobs'>);
}

/** Declares a global data type; its adapters never see a city. */
export function globalType<S extends z.ZodType, L extends true | string | undefined = undefined>(
  dt: Omit<Declared, 'coverage' | 'highlight' | 'fixedCity'> & {
    record: () => S;
    list?: L;
    reads: readonly (Omit<Reading<GlobalAdapter<DataOf<S, L>>>, 'cities' | 'standIn'> & { standIn?: StandIn<GlobalAdapter<DataOf<S, L>>> })[];
  },
): DataType {
  return declared({ ...(dt as unknown as Omit<DataType, 'source' | 'adapter' | 'parts' | 'lookups' | 'jobs'>), scope: 'global' });
}

/** One scalar field a recordable type records: its name in history answers, where it sits in the (summarised) data, its unit. */
export interface HistoryField {
  name: string;
  /** Dotted path into the summarised data (see HistoryDecl.summarise). */
  path: string;
  unit: string;
}

/** One past value an upstream still publishes (a backfill): when, and the recorded fields' values by field name. */
export interface BackfillPoint {
  t: string;
  values: Record<string, number | null>;
}

/**
 * Reads what the upstream still publishes of the past for one city (e.g. SMARD's earlier weeks),
 * with the form's own source client; `data` is the fresh answer whose recording started the
 * series (the adapter may take ids from it). Runs once per new series.
 */
export type HistoryBackfill = (ctx: FetchContext, data: unknown) => Promise<BackfillPoint[]>;

/**
 * A data type declared recordable: the recorder keeps each fresh value of these fields per city,
 * at the type's own cadence, deduplicated by the upstream's timestamp (as_of). Adding a
 * recordable type is this declaration only.
 */
export interface HistoryDecl {
  fields: readonly HistoryField[];
  /** Shrinks the data before the fields are read (default: the type's compare.summarise, else the data itself). */
  summarise?: (data: unknown) => unknown;
  /** Where the upstream offers its past. */
  backfill?: HistoryBackfill;
  /** Days kept (default HISTORY_RETENTION_DAYS). */
  retentionDays?: number;
}

/** One derived form per type and reading, so that per-form caches (hit sources, states) work by identity. */
const forms = new WeakMap<DataType, WeakMap<object, DataType>>();
function formsFor(dt: DataType): WeakMap<object, DataType> {
  let m = forms.get(dt);
  if (!m) forms.set(dt, (m = new WeakMap()));
  return m;
}

/** The data type as one reading answers: that reading's source, adapter, parts, cache and stand-in. */
export function formOf(dt: DataType, r: Reading): DataType {
  const known = formsFor(dt);
  let t = known.get(r);
  if (!t) {
    const { standIn: _standIn, standingInFor: _for, ...rest } = dt;
    t = {
      ...rest,
      source: r.source,
      adapter: r.adapter,
      parts: r.parts ?? [],
      lookups: r.lookups ?? [],
      jobs: r.jobs ?? [],
      cache: r.cache ?? dt.cache,
      ...(r.standIn ? { standIn: r.standIn } : {}),
    };
    known.set(r, t);
  }
  return t;
}

/** The form as its stand-in answers it (the form's source unusable): same type, path, record and coverage. */
export function standInForm(form: DataType): DataType | null {
  const s = form.standIn;
  if (!s) return null;
  const known = formsFor(form);
  let t = known.get(s);
  if (!t) {
    const { standIn: _standIn, ...rest } = form;
    t = {
      ...rest,
      source: s.source,
      adapter: s.adapter,
      parts: s.parts ?? [],
      lookups: s.lookups ?? [],
      jobs: s.jobs ?? [],
      cache: s.cache ?? form.cache,
      standingInFor: { source: form.source, note: s.note },
    };
    known.set(s, t);
  }
  return t;
}

/** The reading that answers `slug` (per-city types): the one naming the city, else the one without cities. */
export function readingFor(dt: DataType, slug: string): Reading {
  return dt.reads.find((r) => r.cities?.includes(slug)) ?? defaultReading(dt);
}

/** The reading that answers these parameters (global types with a `variantParam`), else the default one. */
export function readingForParams(dt: DataType, params: Record<string, unknown>): Reading {
  const value = dt.variantParam ? params[dt.variantParam] : undefined;
  return (typeof value === 'string' ? dt.reads.find((r) => r.values?.includes(value)) : undefined) ?? defaultReading(dt);
}

function defaultReading(dt: DataType): Reading {
  return dt.reads.find((r) => !r.cities && !r.values) ?? dt.reads[0]!;
}

/** The form that answers `slug`, before settings are looked at (see readingFor). */
export function forCity(dt: DataType, slug: string): DataType {
  return formOf(dt, readingFor(dt, slug));
}

/** The form that answers these parameters (global types), before settings are looked at (see readingForParams). */
export function forParams(dt: DataType, params: Record<string, unknown>): DataType {
  return formOf(dt, readingForParams(dt, params));
}

/** Every form of a data type: each reading's, for coverage and state views. */
export function formsOf(dt: DataType): DataType[] {
  return dt.reads.map((r) => formOf(dt, r));
}

/** Every source a data type reads: its readings', their stand-ins' and their parts'. */
export function sourcesOf(dt: DataType): SourceDecl[] {
  return [...new Set(dt.reads.flatMap((r) => [r.source, ...(r.standIn ? [r.standIn.source, ...(r.standIn.parts ?? [])] : []), ...(r.parts ?? [])]))];
}

/** Every source that answers a data type by itself (its readings', not stand-ins' or parts'). */
export function mainSources(dt: DataType): SourceDecl[] {
  return [...new Set(dt.reads.map((r) => r.source))];
}

/** The jobs that fill what a data type's readings read. */
export function jobsOf(dt: DataType): ScheduledJob[] {
  return [...new Set(dt.reads.flatMap((r) => [...(r.jobs ?? []), ...(r.standIn?.jobs ?? [])]))];
}

/** The docs' line naming which source answers which cities, for a type with several readings (else null). */
export function variantsNote(dt: DataType): string | null {
  const specific = dt.reads.filter((r) => r.cities || r.values);
  if (!specific.length) return null;
  const parts = specific.map((r) => `${[...(r.cities ?? r.values ?? [])].join(', ')}: ${r.source.name} (${r.source.license}, source ${r.source.id})`);
  const main = defaultReading(dt);
  return `Sources per ${dt.variantParam ?? 'city'}: ${parts.join('; ')}; elsewhere ${main.source.name} (${main.source.license}, source ${main.source.id}).`;
}

/** Everything a data type's declaration tells about how it is read: its description and its sources per city. */
export function fullDescription(dt: DataType): string {
  return [dt.description ?? `${dt.summary}.`, variantsNote(dt)].filter(Boolean).join(' ');
}

/** A full stop that ends an abbreviation, not a sentence. */
const ABBREVIATION = /(?:\be\.g|\bi\.e|\betc|\bca|\bvs|\bincl|\bapprox|\bNr|\bSt|\bz\.B|\bu\.a|\bbzw|\b[A-Z])\.$/;

/**
 * The leading whole sentences of the full description, at most `max` characters (at least the
 * first sentence), and whether anything was left out. The OpenAPI operation carries this; the
 * data-type reference page (/docs/data-types) the whole text.
 */
export function briefDescription(dt: DataType, max: number): { text: string; cut: boolean } {
  const full = fullDescription(dt);
  let end = 0;
  for (const m of full.matchAll(/[.!?](?=\s|$)/g)) {
    const at = m.index + 1;
    if (ABBREVIATION.test(full.slice(Math.max(0, at - 8), at))) continue;
    if (end > 0 && at > max) break;
    end = at;
  }
  if (end === 0 || end >= full.length) return { text: full, cut: false };
  return { text: full.slice(0, end), cut: true };
}

/** Cities a data type covers (its coverage plus its variants' cities), or null for all. */
export function coveredCities(dt: DataType): readonly string[] | null {
  if (dt.fixedCity) return [dt.fixedCity];
  if (!dt.coverage) return null;
  const extra = dt.reads.flatMap((r) => r.cities ?? []).filter((c) => !dt.coverage!.cities.includes(c));
  return extra.length ? [...dt.coverage.cities, ...extra] : dt.coverage.cities;
}

export function routePath(dt: DataType): string {
  return dt.path ?? `/api/v1/cities/{city}/${dt.type}`;
}

/** Fills a route template's `{name}` segments, each value percent-encoded. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(values[k] ?? `{${k}}`));
}

const dataSchemas = new WeakMap<DataType, z.ZodType>();

/**
 * The schema of the answer's `data` as it is sent (a list for list types); null is allowed by the
 * envelope. Built once per data type (the catalog bounds them): the fetch check, the OpenAPI
 * document and MCP all share it, however often they ask.
 */
export function dataSchemaOf(dt: DataType): z.ZodType {
  let s = dataSchemas.get(dt);
  if (!s) {
    const item = published(dt.record());
    s = dt.list === true ? z.array(item) : item;
    dataSchemas.set(dt, s);
  }
  return s;
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

/** The MCP tools that are not data-type tools: city lookup, overview, comparison, source state, history. */
export const FIXED_TOOLS = ['find_city', 'city_overview', 'compare_cities', 'sources', 'history'] as const;

/** Every MCP tool name of a catalog, in the order tools/list shows them: fixed, group, own tools. */
export function toolNamesOf(types: readonly DataType[]): string[] {
  const used = new Set(types.map(toolOf));
  const groups = Object.values(GROUP_TOOLS).filter((t) => used.has(t));
  const own = [...used].filter((t) => !groups.includes(t));
  return [FIXED_TOOLS[0], FIXED_TOOLS[1], ...groups, ...own, ...FIXED_TOOLS.slice(2)];
}

/** The request of the declared example: path filled in, other example parameters as the query. */
export function examplePath(dt: DataType): string {
  const values: Record<string, string> = { ...(dt.example.city ? { city: dt.example.city } : {}), ...dt.example.params };
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

/**
 * The type with every reading's source replaced through `swap` (same adapters, cache and cities):
 * for a server whose sources differ from the declared ones, e.g. tighter breakers in a test or a
 * reliability run.
 */
export function withSources(dt: DataType, swap: (src: SourceDecl) => SourceDecl): DataType {
  const swapped = (r: Reading): Reading => ({
    ...r,
    source: swap(r.source),
    ...(r.parts ? { parts: r.parts.map(swap) } : {}),
    ...(r.standIn ? { standIn: { ...r.standIn, source: swap(r.standIn.source), ...(r.standIn.parts ? { parts: r.standIn.parts.map(swap) } : {}) } } : {}),
  });
  return withReads(dt, dt.reads.map(swapped));
}

/** The type with other readings (same type, path, record and coverage). */
export function withReads(dt: DataType, reads: readonly Reading[]): DataType {
  const { source: _s, adapter: _a, parts: _p, lookups: _l, jobs: _j, standIn: _i, standingInFor: _f, ...rest } = dt;
  return declared({ ...rest, reads });
}

/**
 * The refresh cadence (seconds) of a type that streams as Server-Sent Events, or null when it does
 * not: every `live` type (its live.refreshSeconds) and every type declaring `stream` (its fresh
 * window; a stored type's 60 s). The one place that decides which types stream.
 */
export function streamCadence(dt: DataType): number | null {
  if (dt.live) return dt.live.refreshSeconds;
  if (!dt.stream) return null;
  return dt.cache === 'stored' ? 60 : dt.cache.freshSeconds;
}

/** How long an EventSource waits before it reconnects (`retry`): the type's cadence, at most five minutes. */
export function streamRetrySeconds(dt: DataType): number | null {
  const cadence = streamCadence(dt);
  return cadence === null ? null : Math.min(cadence, 300);
}
