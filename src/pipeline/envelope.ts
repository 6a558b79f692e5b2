import type { City } from '../cities/register.ts';
import type { CacheStatus } from '../core/data-type.ts';
import { attributionOf, type Attribution, type SourceDecl } from '../core/source.ts';
import { etagOfParts } from '../http/conditional.ts';
import { cacheStatusHeader } from '../http/cache-headers.ts';
import type { PreparedAnswer } from './cache.ts';

export type SourceStatus = 'ok' | 'no_data' | 'disabled' | 'not_covered';

/** What the pipeline produced for one request, before it becomes bytes. */
export interface Outcome {
  status: SourceStatus;
  cacheStatus: CacheStatus | null;
  /** Null for global data types. */
  city: City | null;
  /** The data JSON as sent (already normalised) or `null`. */
  dataJson: string;
  meta: Record<string, unknown>;
  attribution: Attribution | null;
  /** The data as an object (parsed lazily), for compare, overview and MCP. */
  data(): unknown;
  /** The encoded envelope and its ETag when they were prepared already. */
  prepared?: PreparedAnswer;
  /** When the data was fetched (ms; meta.fetched_at has whole seconds): streams order copies by it. */
  fetchedMs?: number;
}

export const JSON_NULL = 'null';

/** An outcome without cached data (not_covered, disabled). */
export function emptyOutcome(city: City | null, status: SourceStatus, meta: Record<string, unknown>): Outcome {
  meta.source_status = status;
  return { status, cacheStatus: null, city, dataJson: JSON_NULL, meta, attribution: null, data: () => null };
}

/** One attribution object per source, so its JSON is serialised once. */
const attributions = new WeakMap<SourceDecl, Attribution>();
export function attributionFor(src: SourceDecl): Attribution {
  let a = attributions.get(src);
  if (!a) {
    a = attributionOf(src);
    attributions.set(src, a);
  }
  return a;
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

/** The answer encoded once: its bytes, ETag and Cache-Status header. */
export function prepare(o: Outcome): PreparedAnswer {
  return {
    body: Buffer.from(envelopeJson(o)),
    etag: etagOfOutcome(o),
    headers: o.cacheStatus ? [['cache-status', cacheStatusHeader(o.cacheStatus)]] : [],
    cacheStatus: o.cacheStatus,
  };
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
