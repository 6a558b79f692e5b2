import type { City } from '../cities/register.ts';
import { resolveCity } from '../cities/resolve.ts';
import { CITY_BY_SLUG } from '../cities/register.ts';
import {
  coveredCities,
  forCity,
  forParam,
  type AdapterResult,
  type CacheWindows,
  type DataType,
  type FetchContext,
  type PartResult,
} from '../core/data-type.ts';
import { paramKey, parseParams } from '../core/params.ts';
import { ProblemError } from '../core/problem.ts';
import { paginate, parsePageRequest, type Channel, type PaginationMeta } from '../http/pagination.ts';
import { toBerlinIso } from '../core/time.ts';
import { normalise } from '../core/normalise.ts';
import { attributionOf, type Attribution, type SourceDecl } from '../core/source.ts';
import { BudgetExceededError, type Cache, type CacheStatus, type Entry } from './cache.ts';
import { UpstreamError } from '../core/upstream-error.ts';
import { normaliseQuery, keyParams } from './query.ts';
import type { Runtime } from './runtime.ts';
import { withDeadline } from '../core/deadline.ts';
import { etagOfParts } from '../http/conditional.ts';
import type { PreparedHit } from '../http/hit-lane.ts';
import { demoNote } from './demo-note.ts';

export type SourceStatus = 'ok' | 'no_data' | 'disabled' | 'not_covered';

/** The oldest stale shared value a fetch used, and whether one of them failed to refresh. */
interface StaleInput {
  oldest: number | null;
  failed: boolean;
}

/** What the pipeline produced for one request, before it becomes bytes. */
export interface Outcome {
  status: SourceStatus;
  cacheStatus: CacheStatus | null;
  /** Null for global data types. */
  city: City | null;
  /** The data JSON as cached (already normalised) or null. */
  dataJson: string;
  meta: Record<string, unknown>;
  attribution: Attribution | null;
  /** Lazily parsed data, for compare, overview and MCP. */
  data(): unknown;
  /** The encoded envelope and its ETag when they were prepared already. */
  prepared?: PreparedHit;
}

export interface RunOptions {
  channel?: Channel;
  /** Skip page/limit handling (compare and overview use whole records). */
  noPaging?: boolean;
  /** The request had no query string: its HIT answer may be prepared once and reused. */
  plain?: boolean;
}

const jsonNull = 'null';

/** One attribution object per source, so its JSON is serialised once. */
const attributions = new WeakMap<SourceDecl, Attribution>();
function attributionFor(src: SourceDecl): Attribution {
  let a = attributions.get(src);
  if (!a) {
    a = attributionOf(src);
    attributions.set(src, a);
  }
  return a;
}

export class Pipeline {
  constructor(
    private readonly rt: Runtime,
    private readonly cache: Cache,
  ) {}

  /**
   * The fast path of a cache HIT: a plain request (canonical slug, no query, REST channel) for
   * a fresh entry gets the answer prepared by the first HIT, with no parsing or serialising.
   * Null means "take the full path", which gives the identical answer.
   */
  fastHit(dt: DataType, citySlug: string | null): PreparedHit | null {
    const city = citySlug === null ? undefined : CITY_BY_SLUG.get(citySlug);
    return city ? this.hitSource(dt, city)() : null;
  }

  /**
   * The same for one data type and city, with the cache key and metric child looked up once:
   * what the HIT lane in front of Fastify (src/http/hit-lane.ts) calls per request.
   */
  hitSource(dt: DataType, city: City): () => PreparedHit | null {
    const key = `${dt.type}:${city.slug}:`;
    let source = this.hitSources.get(key);
    if (!source) {
      source = this.newHitSource(dt, city, key);
      this.hitSources.set(key, source);
    }
    return source;
  }

  /** One per data type and city (at most types x cities): each holds a metrics tally. */
  private readonly hitSources = new Map<string, () => PreparedHit | null>();

  private newHitSource(declared: DataType, city: City, key: string): () => PreparedHit | null {
    const dt = forCity(declared, city.slug);
    const windows = dt.cache;
    if (windows === 'stored' || dt.scope === 'global' || dt.params?.length) return () => null;
    const hits = this.rt.metrics.tally(this.rt.metrics.cacheChild(dt.type, 'HIT'));
    return () => {
      const entry = this.cache.peekFresh(key, windows);
      if (!entry?.hit) return null;
      hits.n++;
      return entry.hit;
    };
  }

  /** The generic request path of DESIGN.md for one per-city data type. */
  async run(declared: DataType, cityInput: string | City | null, query: Record<string, unknown>, opts: RunOptions = {}): Promise<Outcome> {
    const city = declared.scope === 'global' ? null : typeof cityInput === 'string' ? resolveCity(cityInput) : cityInput;
    if (declared.scope !== 'global' && !city) throw new ProblemError('city_not_found', 'no city given', 'GET /api/v1/cities lists the city slugs.');
    // A global type whose path parameter picks a variant (e.g. the charging operator) reads it first.
    const variantParams = city === null && declared.variantParam ? parseParams(declared.params ?? [], normaliseQuery(query)) : null;
    // A variant's source answers its cities (or parameter values); the main source every other one.
    const chosen = city ? forCity(declared, city.slug) : variantParams ? forParam(declared, variantParams) : declared;
    // That source unusable (no credentials, switched off): a declared keyless fallback answers.
    const answering = this.rt.answering(chosen);
    const dt = answering ?? chosen;
    const fallbackMeta =
      answering && answering !== chosen
        ? { answered_by: answering.source.id, fallback_for: chosen.source.id, fallback_note: chosen.fallback?.note ?? null }
        : null;
    const params = variantParams ?? parseParams(dt.params ?? [], normaliseQuery(query));
    const pageReq = dt.list && !opts.noPaging ? parsePageRequest(query) : null;
    const base = { ...this.baseMeta(dt, city), ...fallbackMeta };

    const covered = coveredCities(declared);
    if (city && covered && !covered.includes(city.slug)) {
      return this.outcome(
        city,
        'not_covered',
        null,
        jsonNull,
        { ...base, covered_cities: [...covered].sort(), note: dt.coverage?.note ?? `served for ${covered.join(', ')} only` },
        null,
      );
    }
    const settings = this.rt.settings(dt.source);
    if (!settings.enabled || settings.missingCredentials.length > 0) {
      const reason = !settings.enabled
        ? (dt.source.offReason ?? `source switched off (${dt.source.env}_ENABLED=false)`)
        : `server credentials missing: ${settings.missingCredentials.join(', ')}`;
      return this.outcome(city, 'disabled', null, jsonNull, { ...base, disabled_reason: reason }, null);
    }

    const attribution = attributionFor(dt.source);
    let entry: Entry;
    let cacheStatus: CacheStatus | null = null;
    if (dt.cache === 'stored') {
      try {
        entry = await this.fetchEntry(dt, city, params);
      } catch (err) {
        throw this.storedFailure(dt, city, err);
      }
    } else {
      const key = `${dt.type}:${city?.slug ?? '-'}:${paramKey(dt.params ?? [], keyParams(dt.params ?? [], params))}`;
      const res = await this.cache.get(
        key,
        dt.cache,
        () => this.fetchEntry(dt, city, params),
        () => this.rt.breakers.isOpen(dt.source),
      );
      if (res.status === 'UNAVAILABLE') throw this.unavailable(dt, city, res.error);
      entry = res.entry;
      cacheStatus = res.status;
      this.rt.metrics.countCache(dt.type, cacheStatus);
    }

    const meta: Record<string, unknown> = { ...base, ...entry.meta, fetched_at: (entry.fetchedAtIso ??= toBerlinIso(entry.fetchedAt)) };
    if (cacheStatus) meta.cache_status = cacheStatus;
    if (cacheStatus === 'STALE-ON-ERROR' && entry.retryAfterUntil && entry.retryAfterUntil > Date.now()) meta.retry_after = toBerlinIso(entry.retryAfterUntil);
    if (entry.asOf) meta.as_of = entry.asOf;
    const note = this.rt.config.demo && entry.status === 'no_data' ? demoNote(declared, city) : null;
    if (note) meta.note ??= note;
    if (dt.live) {
      meta.as_of = entry.asOf ?? entry.fetchedAtIso;
      meta.refresh_seconds = dt.live.refreshSeconds;
    }
    let dataJson = entry.dataJson;
    let parsed: unknown = undefined;
    if (pageReq && entry.status === 'ok') {
      // Stored entries hold their data even when it is null (no JSON to parse then).
      const data = entry.parsed !== undefined ? entry.parsed : (entry.parsed = JSON.parse(entry.dataJson));
      const listOf = dt.list === true ? data : (data as Record<string, unknown>)?.[dt.list as string];
      if (Array.isArray(listOf)) {
        const { items, meta: pm } = paginate(listOf, pageReq, opts.channel ?? 'rest');
        meta.pagination = pm;
        if (pm.applied) {
          parsed = dt.list === true ? items : { ...(data as object), [dt.list as string]: items };
          if (entry.unnormalised) parsed = this.normaliseStored(dt, city, parsed);
          dataJson = JSON.stringify(parsed);
        }
      }
    }
    if (parsed === undefined && dataJson === '') {
      if (entry.unnormalised) {
        entry.parsed = this.normaliseStored(dt, city, entry.parsed);
        entry.unnormalised = false;
      }
      dataJson = entry.dataJson = JSON.stringify(entry.parsed ?? null);
    }
    const o = this.outcome(city, entry.status, cacheStatus, dataJson, meta, attribution);
    // A HIT whose bytes equal the plain request's (no page cut, no parameters; a query string the
    // type ignores changes nothing) reuses the answer encoded once per entry, with its ETag.
    const samePlain = !dt.list || (opts.plain && !opts.noPaging);
    if (cacheStatus === 'HIT' && samePlain && parsed === undefined && (opts.channel ?? 'rest') === 'rest' && city && !dt.params?.length) {
      entry.hit ??= { body: Buffer.from(envelopeJson(o)), etag: etagOfOutcome(o) };
      o.prepared = entry.hit;
    }
    if (parsed !== undefined) o.data = () => parsed;
    else o.data = () => (entry.parsed ??= JSON.parse(entry.dataJson));
    return o;
  }

  /** Nothing cached and no answer: why, with the wait our own limits know (Retry-After). */
  private unavailable(dt: DataType, city: City | null, err: unknown): ProblemError {
    const what = `${dt.type}${city ? ` in ${city.slug}` : ''}`;
    const extra = { source: dt.source.id };
    if (err instanceof BudgetExceededError) {
      return new ProblemError(
        'upstream_unavailable',
        `${dt.source.name} did not answer within the request budget and nothing is cached for ${what}; the answer is still being fetched and will be cached.`,
        'Retry in a few seconds.',
        { ...extra, retry_after_ms: err.retryAfterMs },
      );
    }
    if (err instanceof UpstreamError && err.kind === 'own_rate_limit') {
      return new ProblemError(
        'upstream_unavailable',
        `this service's call budget for ${dt.source.name} is used up for the moment and nothing is cached for ${what}.`,
        'Retry after the time in Retry-After; cached answers are not affected.',
        { ...extra, retry_after_ms: err.retryAfterMs ?? 60_000 },
      );
    }
    this.rt.log.warn({ type: dt.type, city: city?.slug, err: String(err) }, 'upstream fetch failed and nothing is cached');
    const wait = err instanceof UpstreamError && err.retryAfterMs ? { retry_after_ms: err.retryAfterMs } : {};
    return new ProblemError(
      'upstream_unavailable',
      `${dt.source.name} is unreachable and nothing is cached for ${what}.`,
      'Retry later; GET /api/v1/health and GET /api/v1/sources show the state of every source.',
      { ...extra, ...wait },
    );
  }

  /** Stored data is normalised as it is sent (a page of a large board, not the whole board). */
  private normaliseStored(dt: DataType, city: City | null, data: unknown): unknown {
    try {
      return normalise(data);
    } catch (err) {
      throw this.storedFailure(dt, city, err);
    }
  }

  private storedFailure(dt: DataType, city: City | null, err: unknown): ProblemError {
    if (err instanceof ProblemError) return err;
    this.rt.log.warn({ type: dt.type, city: city?.slug, err: String(err) }, 'reading stored data failed');
    return new ProblemError(
      'upstream_unavailable',
      `the stored ${dt.type} data could not be read.`,
      'Retry later; GET /api/v1/health shows the state of the store.',
      { source: dt.source.id },
    );
  }

  private baseMeta(dt: DataType, city: City | null): Record<string, unknown> {
    const m: Record<string, unknown> = {
      type: dt.type,
      ...(city ? { city: city.slug } : {}),
      source: dt.source.id,
      license: dt.source.license,
      tier: dt.source.tier,
    };
    if (this.rt.config.demo) m.demo = true;
    return m;
  }

  private outcome(
    city: City | null,
    status: SourceStatus,
    cacheStatus: CacheStatus | null,
    dataJson: string,
    meta: Record<string, unknown>,
    attribution: Attribution | null,
  ): Outcome {
    meta.source_status = status;
    return { status, cacheStatus, city, dataJson, meta, attribution, data: () => (dataJson === jsonNull ? null : JSON.parse(dataJson)) };
  }

  /** A source's shared sub-resource through the same cache and single-flight (see FetchContext.cached). */
  private async shared<T>(source: SourceDecl, name: string, windows: CacheWindows, fetch: () => Promise<T>, input: StaleInput): Promise<T> {
    const key = `shared:${source.id}:${name}`;
    const res = await this.cache.get(
      key,
      windows,
      async () => {
        const value = await fetch();
        return { fetchedAt: Date.now(), status: 'ok', asOf: null, meta: {}, dataJson: JSON.stringify(value) };
      },
      () => this.rt.breakers.isOpen(source),
    );
    if (res.status === 'UNAVAILABLE') throw res.error;
    if (res.status === 'STALE' || res.status === 'STALE-ON-ERROR') {
      input.oldest = Math.min(input.oldest ?? Infinity, res.entry.fetchedAt);
      if (res.status === 'STALE-ON-ERROR') input.failed = true;
    }
    return (res.entry.parsed ??= JSON.parse(res.entry.dataJson)) as T;
  }

  /** A part of an answer from another source (see FetchContext.part): its settings, http, cache and breaker. */
  private async part<T>(ctx: FetchContext, source: SourceDecl, read: (ctx: FetchContext) => Promise<T>, input: StaleInput): Promise<PartResult<T>> {
    const settings = this.rt.settings(source);
    if (!settings.enabled) return { status: 'disabled', reason: source.offReason ?? `source switched off (${source.env}_ENABLED=false)` };
    if (settings.missingCredentials.length > 0) {
      return { status: 'disabled', reason: `server credentials missing: ${settings.missingCredentials.join(', ')}` };
    }
    const sub: FetchContext = {
      ...ctx,
      http: this.rt.http(source).withSignal(ctx.signal),
      cached: (name, windows, fetch) => this.shared(source, name, windows, fetch, input),
    };
    try {
      return { status: 'ok', value: await this.rt.breakers.execute(source, () => read(sub)) };
    } catch (err) {
      // The kind only: upstream messages can carry request details.
      const kind = err instanceof UpstreamError ? err.kind : 'failure';
      return { status: 'unavailable', reason: `${source.name} did not answer (${kind})` };
    }
  }

  /** Breaker + timeout + adapter + normalisation: one fresh entry. */
  private async fetchEntry(dt: DataType, city: City | null, params: Record<string, unknown>): Promise<Entry> {
    const input: StaleInput = { oldest: null, failed: false };
    const run = async (signal: AbortSignal): Promise<AdapterResult> => {
      const ctx: FetchContext = {
        // Global types are declared through globalType(), whose adapters never read `city`.
        city: city as City,
        params,
        http: this.rt.http(dt.source).withSignal(signal),
        store: this.rt.store,
        config: this.rt.config,
        now: new Date(),
        signal,
        lookup: async (type, c, p = {}) => {
          const other = this.rt.catalog.byType.get(type);
          if (!other) return null;
          try {
            const o = await this.run(other, c, p, { noPaging: true });
            return o.status === 'ok' ? o.data() : null;
          } catch {
            return null;
          }
        },
        cached: (name, windows, fetch) => this.shared(dt.source, name, windows, fetch, input),
        part: (source, read) => this.part(ctx, source, read, input),
      };
      return dt.adapter(ctx);
    };
    // A fetch may outlive the request that started it (it fills the cache), never this deadline.
    const result =
      dt.cache === 'stored'
        ? await withDeadline(this.rt.config.requestBudgetMs, run)
        : await withDeadline(this.rt.config.fetchDeadlineMs, (signal) => this.rt.breakers.execute(dt.source, () => run(signal)));
    // Stored types are read per request and never cached: keep the adapter's object, and
    // normalise and serialise only what is sent (run()): a page of a large board, not the board.
    const stored = dt.cache === 'stored';
    const data = stored ? (result.data ?? null) : normalise(result.data);
    const empty = data === null || (Array.isArray(data) && data.length === 0);
    const entry: Entry = {
      fetchedAt: Date.now(),
      status: result.status ?? (empty ? 'no_data' : 'ok'),
      asOf: result.as_of ?? null,
      meta: result.meta ?? {},
      dataJson: stored ? '' : JSON.stringify(data),
      parsed: stored ? data : undefined,
      unnormalised: stored,
    };
    // Built from a stale shared value: as old as that value, and failed when its refresh failed.
    if (input.oldest !== null) {
      entry.inherited = true;
      entry.fetchedAt = input.oldest;
      if (input.failed) entry.failedAt = Date.now();
    }
    return entry;
  }
}

/** The bytes to send: the prepared HIT answer, or the envelope assembled from its parts. */
export function envelopeBody(o: Outcome): Buffer | string {
  return o.prepared?.body ?? envelopeJson(o);
}

/**
 * Strong ETag of an answer: the envelope's parts without meta.cache_status, which says how this
 * request was served rather than what it carries, so a MISS and the HITs after it share one tag.
 */
export function etagOfOutcome(o: Outcome): string {
  if (o.prepared) return o.prepared.etag;
  const { cache_status: _served, ...meta } = o.meta;
  return etagOfParts(o.dataJson, JSON.stringify(meta), attributionJson(o.attribution));
}

/** The canonical envelope, assembled from prepared parts without re-serialising the data. */
export function envelopeJson(o: Outcome): string {
  return `{"data":${o.dataJson},"meta":${JSON.stringify(o.meta)},"attribution":${attributionJson(o.attribution)}}`;
}

const attributionCache = new WeakMap<Attribution, string>();
function attributionJson(a: Attribution | null): string {
  if (!a) return 'null';
  let s = attributionCache.get(a);
  if (s === undefined) {
    s = JSON.stringify(a);
    attributionCache.set(a, s);
  }
  return s;
}

export function envelopeObject(o: Outcome): { data: unknown; meta: Record<string, unknown>; attribution: Attribution | null } {
  return { data: o.data(), meta: o.meta, attribution: o.attribution };
}

export type { PaginationMeta };
