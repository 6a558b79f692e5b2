import type { City } from './city.ts';
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
   * for types that compose: `ref` must be one of the type's declared `lookups`. Null when that
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
   * One part of the answer read from another source its type lists (e.g. official figures next
   * to OSM counts, a `part` source): `read` gets this context with that source's http client and
   * shared cache, behind that source's breaker. A source that is switched off or lacks credentials is never called;
   * any failure of the part comes back as a reason, so the rest of the answer still stands.
   */
  part<T>(source: SourceDecl, read: (ctx: FetchContext) => Promise<T>): Promise<PartResult<T>>;
}

/**
 * What a part from another source gave: its value, or why there is none (`disabled`: which setting unlocks it).
 * `error` is the part's failure, for an adapter that has nothing else to answer with (never shown as such).
 */
export type PartResult<T> = { status: 'ok'; value: T } | { status: 'disabled'; reason: string } | { status: 'unavailable'; reason: string; error: unknown };

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
 * What one source does for a data type. A type lists its sources once, flat, each with its role and
 * the cities it is for (`for`; on a global type, values of its `variantParam`). Without `for`, a
 * primary answers every city no other primary names, a stand-in or failover stands in for that
 * primary, and a part joins every answer. The roles:
 *
 * - `primary`: answers the type with its adapter. A type has one primary without `for` (the
 *   default) and may add primaries for named cities (e.g. Köln's own traffic feed); their cities
 *   count as covered.
 * - `stand-in`: answers with its adapter, in place of the primary with the same `for`, while that
 *   primary's source is unusable (switched off, credentials missing).
 * - `failover`: the same, while that primary's source is usable but fails (nothing cached, the fetch
 *   failed or its breakers are open).
 * - `part`: has no adapter; the adapters of this type read a part of their answer from it
 *   (FetchContext.part) behind its own settings, breaker and shared cache.
 *
 * Every listed source is a source of its own: settings, breakers, attribution, status, variables.
 * An adapter reads a part from its own source or a `part` source listed for the cities it answers.
 */
export type TypeSource<A = Adapter<unknown>> = AnsweringSource<A> | PartSource;

export type SourceRole = TypeSource['role'];

/** What a source that answers the type with its own adapter declares (see TypeSource). */
interface Answering<A> {
  source: SourceDecl;
  adapter: A;
  /** The cities (global types: `variantParam` values) it answers for; none: every other. */
  for?: readonly string[];
  /** Its cache windows (default: the type's `cache`). */
  cache?: CacheWindows | 'stored';
  /** For stored data: the jobs that write what its adapter reads. */
  jobs?: readonly ScheduledJob[];
}

export interface PrimarySource<A = Adapter<unknown>> extends Answering<A> {
  role: 'primary';
}

export interface StandInSource<A = Adapter<unknown>> extends Answering<A> {
  role: 'stand-in' | 'failover';
  /** What its answer lacks compared with the primary's (meta.fallback_note). */
  note: string;
}

/** A listed source that answers the type with its own adapter (see TypeSource). */
export type AnsweringSource<A = Adapter<unknown>> = PrimarySource<A> | StandInSource<A>;

/** A listed source its type's adapters read a part of their answer from (see TypeSource). */
export interface PartSource {
  role: 'part';
  source: SourceDecl;
  for?: readonly string[];
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
 * a declaration only: the adapters its sources name live in the source modules. Which source
 * answers a request is decided per city (core/forms.ts: a Form is the type as one source answers it).
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
  /** Every source it reads, each with its role and cities (see TypeSource). */
  sources: readonly TypeSource[];
  /** Other data types its adapters look up (FetchContext.lookup), through their own sources and cache. */
  lookups?: readonly TypeRef<unknown>[];
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
  /** Global types: the path parameter whose value picks the primary source (e.g. `operator`; see TypeSource.for). */
  variantParam?: string;
  /** An MCP tool of its own (e.g. `departures`) instead of its group's tool. */
  tool?: string;
}

type Declared = Omit<DataType, 'record' | 'list' | 'scope' | 'sources'>;
type DataOf<S extends z.ZodType, L> = L extends true ? z.infer<S>[] : z.infer<S>;

/** Whether two `for` lists name the same cities (or values); both absent is the same. */
export function sameFor(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((x) => b.includes(x));
}

/**
 * The declared type, its source list checked: one default primary (without `for`), and every
 * stand-in or failover standing in for a primary with the same `for`, at most one per primary.
 */
function declared(dt: DataType): DataType {
  const primaries = dt.sources.filter((s) => s.role === 'primary');
  if (primaries.filter((s) => !s.for).length !== 1) throw new Error(`data type ${dt.type} needs exactly one primary source without \`for\``);
  const standIns = dt.sources.filter((s) => s.role === 'stand-in' || s.role === 'failover');
  for (const s of standIns) {
    if (!primaries.some((p) => sameFor(p.for, s.for))) throw new Error(`data type ${dt.type}: ${s.source.id} stands in for no primary with its cities`);
    if (standIns.filter((o) => sameFor(o.for, s.for)).length > 1) throw new Error(`data type ${dt.type}: two stand-ins for the same primary`);
  }
  return dt;
}

/**
 * Declares a per-city data type; the compiler checks that every adapter of its sources returns
 * what the record schema describes (a list of it for `list: true`).
 */
export function dataType<S extends z.ZodType, L extends true | string | undefined = undefined>(
  dt: Declared & { record: () => S; list?: L; sources: readonly TypeSource<Adapter<DataOf<S, L>>>[] },
): DataType {
  return declared(dt as unknown as DataType);
}

/** Declares a global data type; its adapters never see a city, and `for` names values of its `variantParam`. */
export function globalType<S extends z.ZodType, L extends true | string | undefined = undefined>(
  dt: Omit<Declared, 'coverage' | 'highlight' | 'fixedCity'> & { record: () => S; list?: L; sources: readonly TypeSource<GlobalAdapter<DataOf<S, L>>>[] },
): DataType {
  return declared({ ...(dt as unknown as DataType), scope: 'global' });
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

/** The sources that answer a data type with its own adapter, each for its cities (see TypeSource). */
export function primariesOf(dt: DataType): PrimarySource[] {
  return dt.sources.filter((s): s is PrimarySource => s.role === 'primary');
}

/** The primary without `for`: it answers every city (or value) no other primary names. */
export function defaultPrimary(dt: DataType): PrimarySource {
  return primariesOf(dt).find((s) => !s.for)!;
}

/**
 * The tiers of the sources that may answer a type (primaries, stand-ins, failovers; not parts),
 * e.g. "Tier A", or "Tier A/C" for a type whose cities are answered by sources of two tiers.
 */
export function tierLabel(dt: DataType): string {
  const tiers = [...new Set(dt.sources.filter((s) => s.role !== 'part').map((s) => s.source.tier))].sort();
  return `Tier ${tiers.join('/')}`;
}

/** The docs' line naming which source answers which cities, for a type with several primaries (else null). */
export function variantsNote(dt: DataType): string | null {
  const specific = primariesOf(dt).filter((s) => s.for);
  if (!specific.length) return null;
  const named = (s: PrimarySource) => `${s.source.name} (${s.source.license}, source ${s.source.id})`;
  const parts = specific.map((s) => `${[...s.for!].join(', ')}: ${named(s)}`);
  return `Sources per ${dt.variantParam ?? 'city'}: ${parts.join('; ')}; elsewhere ${named(defaultPrimary(dt))}.`;
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

/** Cities a data type covers (its coverage plus the cities its primaries name), or null for all. */
export function coveredCities(dt: DataType): readonly string[] | null {
  if (dt.fixedCity) return [dt.fixedCity];
  if (!dt.coverage) return null;
  const extra = primariesOf(dt)
    .flatMap((s) => s.for ?? [])
    .filter((c) => !dt.coverage!.cities.includes(c));
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
