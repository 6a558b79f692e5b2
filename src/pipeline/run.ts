import type { City } from '../cities/register.ts';
import type { DataType, TypeRef } from '../core/data-type.ts';
import type { Form } from '../core/forms.ts';
import { peekStatus, type Cache, type CacheStatus, type PreparedAnswer } from './cache.ts';
import type { Outcome } from './envelope.ts';
import { gate } from './gate.ts';
import { cacheKey, Loader, type Loaded } from './load.ts';
import { ProblemError } from '../core/problem.ts';
import { orFallbackAfter } from '../core/limit.ts';
import { present } from './present.ts';
import { answeredBy, resolve, type Resolved, type RunOptions } from './resolve.ts';
import type { Runtime } from './runtime.ts';

export type { RunOptions };

/**
 * What a request would meet now, looked up without making it (Pipeline.peek): refused before the
 * load (not_covered, disabled), an answer in the cache, or nothing known without running it:
 * `none` (nothing cached, or past its stale window) and `stored` (read per request from what a job
 * stored).
 */
export type Peeked =
  | { kind: 'gated'; outcome: Outcome }
  | { kind: 'cached'; status: 'ok' | 'no_data'; cacheStatus: Exclude<CacheStatus, 'MISS'>; fetchedAt: number }
  | { kind: 'none' }
  | { kind: 'stored' };
export type { Outcome, SourceStatus } from './envelope.ts';
export { envelopeBody, envelopeJson, envelopeObject, etagOfOutcome } from './envelope.ts';
export type { PaginationMeta } from '../http/pagination.ts';

/**
 * The request path (docs/architecture.md) of every data type, as four stages:
 * resolve (city, answering source, settings, parameters) -> gate (not_covered, disabled) -> load (cache or
 * store, breaker, adapter) -> present (meta, page, prepared answer).
 */
export class Pipeline {
  private readonly loader: Loader;

  private readonly rt: Runtime;
  private readonly cache: Cache;
  constructor(rt: Runtime, cache: Cache) {
    this.rt = rt;
    this.cache = cache;
    this.loader = new Loader(rt, cache, async <T>(ref: TypeRef<T>, c: City, p: Record<string, unknown> = {}): Promise<T | null> => {
      const other = rt.catalog.byType.get(ref.type);
      if (!other) return null;
      try {
        const o = await this.run(other, c, p, { noPaging: true });
        return o.status === 'ok' ? (o.data() as T) : null;
      } catch {
        return null;
      }
    });
  }

  async run(declared: DataType, cityInput: string | City | null, query: Record<string, unknown>, opts: RunOptions = {}): Promise<Outcome> {
    const r = resolve(this.rt, declared, cityInput, query, opts);
    const refused = gate(this.rt, r);
    if (refused) return refused;
    const form = r.answering!;
    const started = Date.now();
    let loaded: Loaded;
    try {
      loaded = await this.loader.load(r, form);
    } catch (err) {
      const standIn = this.rt.failover(form);
      if (!standIn || !(err instanceof ProblemError) || err.code !== 'upstream_unavailable') throw err;
      // The stand-in gets what is left of the request budget: the whole answer keeps it, however long the first source took to fail.
      const left = this.rt.config.requestBudgetMs - (Date.now() - started);
      if (left <= 0) throw err;
      return this.answerBy(answeredBy(this.rt, r, standIn), standIn, err, left);
    }
    return this.presented(r, form, loaded);
  }

  /**
   * The stand-in's answer while the form's source fails; when it fails too, or does not answer within `leftMs`
   * (its fetch goes on and fills its cache), the form's own failure.
   */
  private async answerBy(r: Resolved, standIn: Form, failure: ProblemError, leftMs: number): Promise<Outcome> {
    let loaded: Loaded | null;
    try {
      const loading = this.loader.load(r, standIn);
      loading.catch(() => undefined);
      loaded = await orFallbackAfter<Loaded | null>(loading, leftMs, () => null);
    } catch {
      throw failure;
    }
    if (loaded === null) throw failure;
    return this.presented(r, standIn, loaded);
  }

  private presented(r: Resolved, form: Form, loaded: Loaded): Outcome {
    try {
      return present(r, form, loaded);
    } catch (err) {
      // Only stored data is normalised here; a record it cannot take is a 503, never a 500.
      throw this.loader.storedFailure(form, r.city, err);
    }
  }

  /**
   * Read-only: what a request for this data type, city and query would meet now, from the gate and
   * the cache alone. Loads nothing, starts no fetch or refresh and joins no flight, so pages built
   * from it (coverage) never call an upstream. Throws what resolve throws (unknown city, bad parameters).
   */
  async peek(declared: DataType, cityInput: string | City | null, query: Record<string, unknown>): Promise<Peeked> {
    const r = resolve(this.rt, declared, cityInput, query, { noPaging: true });
    const refused = gate(this.rt, r);
    if (refused) return { kind: 'gated', outcome: refused };
    const form = r.answering!;
    if (form.cache === 'stored') return { kind: 'stored' };
    const entry = await this.cache.peek(cacheKey(form, r.city, r.params));
    const cacheStatus = entry ? peekStatus(entry, form.cache) : null;
    if (!entry || !cacheStatus) return { kind: 'none' };
    return { kind: 'cached', status: entry.status, cacheStatus, fetchedAt: entry.fetchedAt };
  }

  /**
   * The fast path of a cache HIT for one data type and city, with the cache key and metric child
   * looked up once: the answer prepared by the first HIT while the entry is fresh, with no
   * parsing or serialising; null means "take the full path", which gives the identical answer.
   * What the HIT lane in front of the router (src/http/hit-lane.ts) calls per request.
   */
  hitSource(dt: DataType, city: City): () => PreparedAnswer | null {
    const key = `${dt.type}:${city.slug}`;
    let source = this.hitSources.get(key);
    if (!source) {
      source = this.newHitSource(dt, city);
      this.hitSources.set(key, source);
    }
    return source;
  }

  /** One per data type and city (at most types x cities): each holds a metrics tally. */
  private readonly hitSources = new Map<string, () => PreparedAnswer | null>();

  private newHitSource(declared: DataType, city: City): () => PreparedAnswer | null {
    const r = resolve(this.rt, declared, city, {}, {});
    const form = r.answering;
    if (!form || form.cache === 'stored' || form.scope === 'global' || form.params?.length) return () => null;
    const windows = form.cache;
    const key = cacheKey(form, city, r.params);
    const { metrics, breakers } = this.rt;
    const counts = {
      HIT: metrics.tally(metrics.cacheChild(form.type, 'HIT')),
      STALE: metrics.tally(metrics.cacheChild(form.type, 'STALE')),
      'STALE-ON-ERROR': metrics.tally(metrics.cacheChild(form.type, 'STALE-ON-ERROR')),
    };
    // An open breaker (this process's view) starts no refresh: a stale entry is STALE-ON-ERROR.
    const refused = () => breakers.localState(form.source) === 'OPEN';
    return () => {
      const prepared = this.cache.servablePrepared(key, windows, refused);
      if (!prepared) return null;
      const count =
        prepared.cacheStatus === 'HIT' || prepared.cacheStatus === 'STALE' || prepared.cacheStatus === 'STALE-ON-ERROR' ? counts[prepared.cacheStatus] : null;
      if (count) count.n++;
      return prepared;
    };
  }
}
