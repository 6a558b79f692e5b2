import type { City } from '../cities/register.ts';
import type { SourceDecl } from '../sources/types.ts';
import type { SourceHttp } from '../pipeline/source-http.ts';
import type { Store } from '../store/types.ts';
import type { Config } from '../config.ts';
import type { ParamDecl } from './params.ts';

export type Group = 'environment' | 'transport' | 'energy' | 'society' | 'economy' | 'safety' | 'places' | 'city' | 'live';

export const GROUP_LABELS: Record<Group, string> = {
  environment: 'Environment and weather',
  transport: 'Transport and mobility',
  energy: 'Energy',
  society: 'Population and society',
  economy: 'Economy and finance',
  safety: 'Safety and law',
  places: 'Places and facilities',
  city: 'City and base data',
  live: 'Live',
};

/** What an adapter hands back: the canonical record (normalised afterwards by the pipeline). */
export interface AdapterResult {
  data: unknown;
  /** `no_data`: the source answered but has nothing for this city/query. */
  status?: 'ok' | 'no_data';
  /** Timestamp of the data itself (observation, feed header), zoned ISO. */
  as_of?: string | null;
  /** Extra meta members, e.g. why a value is missing. */
  meta?: Record<string, unknown>;
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
  lookup(type: string, city: City, params?: Record<string, unknown>): Promise<unknown | null>;
  /**
   * A shared upstream sub-resource (e.g. a national station list) fetched through the same
   * cache, single-flight and breaker as data types, keyed per source by `name`. Adapters use
   * this instead of caching anything themselves.
   */
  cached<T>(name: string, windows: CacheWindows, fetch: () => Promise<T>): Promise<T>;
}

/** Context of a global data type (not per city, e.g. a station board by EVA number). */
export type GlobalFetchContext = Omit<FetchContext, 'city'>;

export interface CacheWindows {
  /** Served as HIT for this long after a fetch. */
  freshSeconds: number;
  /** Then served as STALE (with one background refresh) for this long. */
  staleSeconds: number;
}

export interface Coverage {
  /** Canonical slugs where the data type is available; others answer not_covered. */
  cities: readonly string[];
  note: string;
}

/**
 * One data type, declared once. Its route, OpenAPI operation, overview row, coverage cells,
 * MCP tool and compare resource are all derived from this object.
 */
export interface DataType {
  type: string;
  label: string;
  label_en: string;
  group: Group;
  /** MCP tool name; also shown in the overview. */
  tool: string;
  summary: string;
  description?: string;
  /** Route template; `{slug}` or `{city}` names the city. Default `/api/v1/cities/{slug}/<type>`. */
  path?: string;
  /** Deprecated paths answering exactly like `path`, with Deprecation and Link headers. */
  aliases?: string[];
  source: SourceDecl;
  params?: ParamDecl[];
  /** Cache windows for fetched types; `stored` types read what a job wrote and are not cached. */
  cache: CacheWindows | 'stored';
  /** `data` is an array (or the array under this key of the record) that pages. */
  list?: true | string;
  /** Upper bound of a list regardless of the client (e.g. POI samples). */
  coverage?: Coverage;
  /** Live envelope markers. */
  live?: { refreshSeconds: number };
  /** Offered as a compare resource; `summarise` shrinks the data (e.g. aggregates only). */
  compare?: { resource: string; summarise?: (data: any) => unknown };
  /** Overview highlight slot. */
  highlight?: 'weather' | 'air';
  /**
   * For a literal per-city path (e.g. /api/v1/live/hamburg/departures): the city it serves.
   * The type then counts as covering only that city.
   */
  fixedCity?: string;
  /** `global`: the path has no city (e.g. /api/v1/stations/{eva}/departures). Default `city`. */
  scope?: 'city' | 'global';
  fetch(ctx: FetchContext): Promise<AdapterResult>;
}

/** Declares a global data type; its adapter never sees a city. */
export function globalType(
  dt: Omit<DataType, 'scope' | 'fetch' | 'coverage' | 'highlight'> & { fetch(ctx: GlobalFetchContext): Promise<AdapterResult> },
): DataType {
  return { ...dt, scope: 'global', fetch: dt.fetch as DataType['fetch'] };
}

/** Cities a data type covers, or null for all. */
export function coveredCities(dt: DataType): readonly string[] | null {
  if (dt.fixedCity) return [dt.fixedCity];
  return dt.coverage?.cities ?? null;
}

export function routePath(dt: DataType): string {
  return dt.path ?? `/api/v1/cities/{slug}/${dt.type}`;
}
