import { findCity } from '../cities/resolve.ts';
import { cleanedInput, ProblemError } from '../core/problem.ts';
import { paginate, parsePageRequest, parseSort, sortBy, type Channel } from '../http/pagination.ts';
import { mapLimit, orFallbackAfter } from '../core/limit.ts';
import type { Catalog } from '../catalog/index.ts';
import { nearest } from '../core/suggest.ts';
import type { Envelope, ServiceContext } from './context.ts';
import { compareAt, parseTime } from './history-answers.ts';
import { toBerlinIso } from '../core/time.ts';

/** `value` orders by the resource's declared numeric field (`compare.value` in the catalog). */
export const COMPARE_SORTS = ['city', 'source_status', 'value'] as const;

export type CompareItem = {
  city: string;
  data: unknown;
  source_status: string;
  /** The declared compare value (a number or null) for resources that declare one. */
  value?: number | null;
  /** With `at`: the time of the recorded value. */
  as_of?: string;
  cache_status?: string;
  attribution?: unknown;
  note?: string;
};

export function compareResources(catalog: Catalog): string[] {
  return [...catalog.byCompareResource.keys()];
}

/** One resource across cities; every city carries its own status, a failing city never fails the call. */
export async function compareCities(ctx: ServiceContext, query: Record<string, unknown>, channel: Channel): Promise<Envelope & { data: CompareItem[] }> {
  const { rt, pipeline } = ctx;
  const resources = compareResources(rt.catalog);
  const resource = typeof query.resource === 'string' ? query.resource : '';
  const dt = rt.catalog.byCompareResource.get(resource);
  if (!dt) {
    const near = resource ? nearest(resource, resources) : null;
    throw new ProblemError(
      'invalid_request',
      resource ? 'unknown resource' : 'missing resource',
      `${near ? `Did you mean "${near}"? ` : ''}resource must be one of: ${resources.join(', ')}.`,
      { parameter: 'resource', ...(near ? { suggestion: near } : {}) },
    );
  }
  const given = (typeof query.cities === 'string' ? query.cities : '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (given.length === 0)
    throw new ProblemError('invalid_request', 'cities is empty', 'Pass cities=berlin,hamburg (comma-separated slugs; GET /api/v1/cities lists them).', {
      parameter: 'cities',
    });
  if (given.length > rt.config.maxCities)
    throw new ProblemError(
      'invalid_request',
      `${given.length} cities given, at most ${rt.config.maxCities} allowed`,
      `Split the call; MAX_CITIES is ${rt.config.maxCities}.`,
      { parameter: 'cities', max_cities: rt.config.maxCities },
    );
  // One item per city: two spellings of one city (koeln, Cologne) name it once, in the place of the first.
  const names = uniqueBy(given, (name) => findCity(name)?.slug ?? `unknown:${cleanedInput(name)}`);
  const { sort, order } = parseSort(query, COMPARE_SORTS);
  const valuePath = dt.compare?.value;
  if (sort === 'value' && !valuePath)
    throw new ProblemError(
      'invalid_request',
      `resource "${resource}" declares no numeric value to sort by`,
      `sort=value works for: ${valueResources(rt.catalog).join(', ')}; otherwise use sort=city or sort=source_status.`,
      { parameter: 'sort' },
    );
  const page = parsePageRequest(query);
  // `at`: a past moment, answered from the recorded history instead of the sources.
  const at = parseTime(query.at, 'at');
  if (at !== null && at > Date.now())
    throw new ProblemError('invalid_parameter', '"at" lies in the future', 'Pass a past moment, or leave at out for the current values.', { parameter: 'at' });
  const noValue = valuePath ? { value: null } : {};

  // The whole call keeps the request budget: cities not answered by then say so (their fetches go
  // on and fill the cache), and no further fetch starts after it.
  const until = Date.now() + rt.config.requestBudgetMs;
  const late = (slug: string): CompareItem => ({
    city: slug,
    data: null,
    source_status: 'error',
    note: 'not answered within the request budget; retry shortly',
  });
  const items: CompareItem[] =
    at !== null
      ? await compareAt(ctx, dt, names, at, channel === 'mcp' ? 'find_city' : 'GET /api/v1/cities')
      : await mapLimit(names, rt.config.compareConcurrency, async (name): Promise<CompareItem> => {
          const city = findCity(name);
          if (!city)
            return {
              city: cleanedInput(name),
              data: null,
              source_status: 'not_found',
              ...noValue,
              note: `unknown city; ${channel === 'mcp' ? 'find_city' : 'GET /api/v1/cities'} lists the slugs`,
            };
          const left = until - Date.now();
          if (left <= 0) return late(city.slug);
          try {
            const settled = await orFallbackAfter(
              pipeline.run(dt, city, {}, { noPaging: true }).then(
                (o) => ({ o }),
                (err: unknown) => ({ err }),
              ),
              left,
              () => null,
            );
            if (settled === null) return late(city.slug);
            if ('err' in settled) throw settled.err;
            const { o } = settled;
            const raw = o.data();
            const data = raw !== null && dt.compare?.summarise ? dt.compare.summarise(raw) : raw;
            const status = o.status === 'not_covered' ? 'no_data' : o.status;
            return {
              city: city.slug,
              data: status === 'ok' ? data : null,
              source_status: status,
              ...(valuePath ? { value: status === 'ok' ? numberAt(data, valuePath) : null } : {}),
              ...(o.cacheStatus ? { cache_status: o.cacheStatus } : {}),
              attribution: o.attribution,
            };
          } catch (err) {
            return { city: city.slug, data: null, source_status: 'error', ...noValue, note: err instanceof ProblemError ? err.detail : 'source failed' };
          }
        });
  const sorted = sort ? sortBy(items, (x) => x[sort], order) : order === 'desc' ? [...items].reverse() : items;
  const { items: pageItems, meta: pagination } = paginate(sorted, page, channel, true);
  const statuses = countBy(items.map((i) => i.source_status));
  const meta: Record<string, unknown> = {
    // ok only when some city's source answered; else error when one failed, else no_data (docs/contract.md, Compare).
    source_status: statuses.ok ? 'ok' : statuses.error ? 'error' : 'no_data',
    resource,
    type: dt.type,
    total: items.length,
    max_cities: rt.config.maxCities,
    statuses,
    sort,
    order,
    ...(valuePath ? { value_field: valuePath } : {}),
    ...(at !== null ? { at: toBerlinIso(at) } : {}),
    pagination,
  };
  if (rt.config.demo) meta.demo = true;
  return { data: pageItems, meta };
}

/** The items of `list` whose key was not seen before, in their order. */
function uniqueBy<T>(list: readonly T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Compare resources that declare a numeric `value` (what sort=value orders by). */
export function valueResources(catalog: Catalog): string[] {
  return [...catalog.byCompareResource.entries()].filter(([, dt]) => dt.compare?.value).map(([r]) => r);
}

/** The number at a dotted path (`readings.no2.value`), or null when absent or not a finite number. */
function numberAt(data: unknown, path: string): number | null {
  let v: unknown = data;
  for (const key of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
