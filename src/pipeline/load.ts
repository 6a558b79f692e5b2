import type { City } from '../cities/register.ts';
import type { AdapterResult, CacheWindows, FetchContext, PartResult } from '../core/data-type.ts';
import type { Form } from '../core/forms.ts';
import { withDeadline } from '../core/deadline.ts';
import { paramKey } from '../core/params.ts';
import { ProblemError } from '../core/problem.ts';
import type { SourceDecl } from '../core/source.ts';
import { UpstreamError } from '../core/upstream-error.ts';
import { BudgetExceededError, entryData, newEntry, type Cache, type CacheStatus, type Entry } from './cache.ts';
import { disabledReason } from './gate.ts';
import { keyParams } from './query.ts';
import type { Resolved } from './resolve.ts';
import type { Runtime } from './runtime.ts';
import type { BreakerScope } from './breakers.ts';
import { watchedFetch } from './format-drift.ts';
import { isFormatDrift } from '../core/format-drift-error.ts';

/** What the load stage found: the entry and how the cache served it (null for stored types, read per request). */
export interface Loaded {
  entry: Entry;
  cacheStatus: CacheStatus | null;
}

/** Another data type through the pipeline, for adapters that compose (FetchContext.lookup). */
export type Lookup = FetchContext['lookup'];

/** The oldest stale shared value a fetch used, and whether one of them failed to refresh. */
interface StaleInput {
  oldest: number | null;
  failed: boolean;
}

/**
 * The cache key of a data type's answer for a city and parameters; a stand-in's answer has its own
 * (it carries another source's attribution).
 */
export function cacheKey(form: Form, city: City | null, params: Record<string, unknown>): string {
  const key = `${form.type}:${city?.slug ?? '-'}:${paramKey(form.params ?? [], keyParams(form.params ?? [], params))}`;
  return form.standingInFor ? `${key}:@${form.source.id}` : key;
}

/**
 * Stage 3 of the request path: the answer's entry. Fetched types go through the cache (HIT,
 * MISS with one fetch per key, STALE with one background refresh, STALE-ON-ERROR), behind the
 * answering source's breaker and deadline; stored types read what a job wrote, per request.
 */
export class Loader {
  private readonly rt: Runtime;
  private readonly cache: Cache;
  private readonly lookup: Lookup;
  constructor(rt: Runtime, cache: Cache, lookup: Lookup) {
    this.rt = rt;
    this.cache = cache;
    this.lookup = lookup;
  }

  async load(r: Resolved, form: Form): Promise<Loaded> {
    if (form.cache === 'stored') {
      try {
        return { entry: await this.fetchEntry(form, r.city, r.params), cacheStatus: null };
      } catch (err) {
        throw this.storedFailure(form, r.city, err);
      }
    }
    const res = await this.cache.get(
      cacheKey(form, r.city, r.params),
      form.cache,
      () => this.fetchEntry(form, r.city, r.params),
      () => this.rt.breakers.isOpen(form.source),
    );
    if (res.status === 'UNAVAILABLE') throw this.unavailable(form, r.city, res.error);
    this.rt.metrics.countCache(form.type, res.status);
    return { entry: res.entry, cacheStatus: res.status };
  }

  /** A stored entry's data could not be read or normalised: a 503 problem, never a 500. */
  storedFailure(form: Form, city: City | null, err: unknown): ProblemError {
    if (err instanceof ProblemError) return err;
    this.rt.log.warn({ type: form.type, city: city?.slug, err: String(err) }, 'reading stored data failed');
    return new ProblemError(
      'upstream_unavailable',
      `the stored ${form.type} data could not be read.`,
      'Retry later; GET /api/v1/health shows the state of the store.',
      {
        source: form.source.id,
      },
    );
  }

  /** Nothing cached and no answer: why, with the wait our own limits know (Retry-After). */
  private unavailable(form: Form, city: City | null, err: unknown): ProblemError {
    const what = `${form.type}${city ? ` in ${city.slug}` : ''}`;
    const extra = { source: form.source.id };
    if (err instanceof BudgetExceededError) {
      return new ProblemError(
        'upstream_unavailable',
        `${form.source.name} did not answer within the request budget and nothing is cached for ${what}; the answer is still being fetched and will be cached.`,
        'Retry in a few seconds.',
        { ...extra, retry_after_ms: err.retryAfterMs },
      );
    }
    if (err instanceof UpstreamError && err.kind === 'own_rate_limit') {
      return new ProblemError(
        'upstream_unavailable',
        `this service's call budget for ${form.source.name} is used up for the moment and nothing is cached for ${what}.`,
        'Retry after the time in Retry-After; cached answers are not affected.',
        { ...extra, retry_after_ms: err.retryAfterMs ?? 60_000 },
      );
    }
    // Format drift is logged once per source and hour where it is noted (watchedFetch), not per request.
    if (!isFormatDrift(err)) this.rt.log.warn({ type: form.type, city: city?.slug, err: String(err) }, 'upstream fetch failed and nothing is cached');
    const wait = err instanceof UpstreamError && err.retryAfterMs ? { retry_after_ms: err.retryAfterMs } : {};
    return new ProblemError(
      'upstream_unavailable',
      `${form.source.name} is unreachable and nothing is cached for ${what}.`,
      'Retry later; GET /api/v1/health and GET /api/v1/sources show the state of every source.',
      { ...extra, ...wait },
    );
  }

  /** A source's shared sub-resource through the same cache and single-flight (see FetchContext.cached). */
  private async shared<T>(source: SourceDecl, name: string, windows: CacheWindows, fetch: () => Promise<T>, input: StaleInput): Promise<T> {
    const res = await this.cache.get(
      `shared:${source.id}:${name}`,
      windows,
      async () => newEntry({ status: 'ok', asOf: null, meta: {}, dataJson: JSON.stringify(await fetch()) }),
      () => this.rt.breakers.isOpen(source),
    );
    if (res.status === 'UNAVAILABLE') throw res.error;
    if (res.status === 'STALE' || res.status === 'STALE-ON-ERROR') {
      input.oldest = Math.min(input.oldest ?? Infinity, res.entry.fetchedAt);
      if (res.status === 'STALE-ON-ERROR') input.failed = true;
    }
    return entryData(res.entry) as T;
  }

  /** A part of an answer from a source the type lists for the form's cities: its settings, http, cache and breaker. */
  private async part<T>(form: Form, ctx: FetchContext, asked: SourceDecl, read: (ctx: FetchContext) => Promise<T>, input: StaleInput): Promise<PartResult<T>> {
    // Adapters name a source by its module's declaration; the one the type lists (by id) is what this
    // server runs, with the settings and breaker it was built with.
    const source = asked.id === form.source.id ? form.source : form.parts.find((p) => p.id === asked.id);
    if (!source) throw new Error(`${form.type} reads a part from ${asked.id}, which it does not list for these cities`);
    if (!this.rt.sourceEnabled(source)) return { status: 'disabled', reason: disabledReason(this.rt, source) };
    try {
      // The part is a fetch of its own: its hosts' breakers count its outcome (see Breakers.run).
      const value = await this.rt.breakers.run((scope) =>
        read({
          ...ctx,
          http: this.rt.http(source).withSignal(ctx.signal, { breakers: this.rt.breakers, scope }),
          cached: (name, windows, fetch) => this.shared(source, name, windows, fetch, input),
        }),
      );
      return { status: 'ok', value };
    } catch (err) {
      // The kind only: upstream messages can carry request details.
      const reason =
        err instanceof UpstreamError && err.kind === 'own_rate_limit'
          ? `this service's call budget for ${source.name} is used up for the moment`
          : `${source.name} did not answer (${err instanceof UpstreamError ? err.kind : 'failure'})`;
      return { status: 'unavailable', reason, error: err };
    }
  }

  /** The adapter's view of the app for one fetch: the form's source client, store, lookups, shared cache and parts. */
  private context(
    form: Form,
    city: City | null,
    params: Record<string, unknown>,
    signal: AbortSignal,
    input: StaleInput,
    scope: BreakerScope | null,
  ): FetchContext {
    const ctx: FetchContext = {
      // Global types are declared through globalType(), whose adapters never read `city`.
      city: city as City,
      params,
      // Stored types read what a job wrote: no breaker between them and their store.
      http: this.rt.http(form.source).withSignal(signal, scope ? { breakers: this.rt.breakers, scope } : undefined),
      store: this.rt.store,
      config: this.rt.config,
      now: new Date(),
      signal,
      lookup: (ref, c, p) => {
        if (!form.lookups?.includes(ref)) throw new Error(`${form.type} looks up ${ref.type}, which it does not declare in lookups`);
        return this.lookup(ref, c, p);
      },
      cached: (name, windows, fetch) => this.shared(form.source, name, windows, fetch, input),
      part: (source, read) => this.part(form, ctx, source, read, input),
    };
    return ctx;
  }

  /** Breaker + deadline + adapter + normalisation: one fresh entry. */
  private async fetchEntry(form: Form, city: City | null, params: Record<string, unknown>): Promise<Entry> {
    const input: StaleInput = { oldest: null, failed: false };
    const run = async (signal: AbortSignal, scope: BreakerScope | null): Promise<AdapterResult> =>
      form.adapter(this.context(form, city, params, signal, input, scope));
    // A fetch may outlive the request that started it (it fills the cache), never this deadline.
    const stored = form.cache === 'stored';
    const result = stored
      ? await withDeadline(this.rt.config.requestBudgetMs, (signal) => run(signal, null))
      : await withDeadline(this.rt.config.fetchDeadlineMs, (signal) => this.rt.breakers.run((scope) => watchedFetch(this.rt, form, () => run(signal, scope))));
    // Stored types are read per request and never cached: keep the adapter's object, and
    // normalise and serialise only what is sent (a page of a large board, not the board).
    // Fetched data comes normalised and checked against its record schema (watchedFetch).
    const data = stored ? (result.data ?? null) : result.data;
    const empty = data === null || (Array.isArray(data) && data.length === 0);
    const status = result.status ?? (empty ? 'no_data' : 'ok');
    // Built from a stale shared value: as old as that value, and failed when its refresh failed.
    const inherited = input.oldest !== null ? { fetchedAt: input.oldest, failed: input.failed } : undefined;
    const head = { status, asOf: result.as_of ?? null, meta: result.meta ?? {}, inherited };
    if (status === 'ok' && city) this.record(form, city, params, head.asOf, data);
    return stored ? newEntry({ ...head, stored: data }) : newEntry({ ...head, dataJson: JSON.stringify(data) });
  }

  /**
   * Hands a fresh value of a recordable type to the history recorder (HISTORY_ENABLED), for the
   * type's default parameters only: a series is one city's answer, not every variant of it.
   */
  private record(form: Form, city: City, params: Record<string, unknown>, asOf: string | null, data: unknown) {
    const sink = this.rt.history;
    const decl = form.history;
    if (!sink || !decl || !(form.params ?? []).every((d) => params[d.name] === d.default)) return;
    const backfill = decl.backfill;
    sink.fresh(
      {
        type: form.type,
        history: decl,
        summarise: decl.summarise ?? form.compare?.summarise ?? null,
        city,
        asOf,
        fetchedAt: Date.now(),
        source: form.source.id,
        license: form.source.license,
        data,
      },
      backfill
        ? () =>
            withDeadline(this.rt.config.fetchDeadlineMs, (signal) =>
              this.rt.breakers.run((scope) => backfill(this.context(form, city, params, signal, { oldest: null, failed: false }, scope), data)),
            )
        : null,
    );
  }
}
