import { normalise } from '../core/normalise.ts';
import { paginate } from '../http/pagination.ts';
import { entryData, entryFetchedIso, entryJson, preparedOf, rawStoredData } from './cache.ts';
import { attributionFor, prepare, type Outcome } from './envelope.ts';
import type { Loaded } from './load.ts';
import type { Resolved } from './resolve.ts';
import { toBerlinIso } from '../core/time.ts';
import type { Form } from '../core/forms.ts';
import { demoNote } from './demo-note.ts';

/**
 * Stage 4 of the request path: the answer. Meta from the request, the entry and the cache
 * (fetched_at, as_of, cache_status, retry_after, the live markers), the page the request asks
 * for, and for a plain cache HIT the whole answer encoded once per entry (reused until the
 * entry goes stale). Stored data is normalised here, only the page that is sent.
 */
export function present(r: Resolved, form: Form, { entry, cacheStatus }: Loaded): Outcome {
  const meta: Record<string, unknown> = { ...r.meta, ...entry.meta, fetched_at: entryFetchedIso(entry) };
  if (cacheStatus) meta.cache_status = cacheStatus;
  if (cacheStatus === 'STALE-ON-ERROR' && entry.retryAfterUntil && entry.retryAfterUntil > Date.now()) meta.retry_after = toBerlinIso(entry.retryAfterUntil);
  if (entry.asOf) meta.as_of = entry.asOf;
  const note = r.meta.demo && entry.status === 'no_data' ? demoNote(r.declared, r.city) : null;
  if (note) meta.note ??= note;
  if (form.live) {
    meta.as_of = entry.asOf ?? meta.fetched_at;
    meta.refresh_seconds = form.live.refreshSeconds;
  }
  const page = r.page && entry.status === 'ok' ? pageOf(r, form, entry, meta) : undefined;
  const dataJson = page === undefined ? entryJson(entry) : JSON.stringify(page);
  meta.source_status = entry.status;
  const o: Outcome = {
    status: entry.status,
    cacheStatus,
    city: r.city,
    dataJson,
    meta,
    attribution: attributionFor(form.source),
    data: page === undefined ? () => entryData(entry) : () => page,
    fetchedMs: entry.fetchedAt,
  };
  // A HIT or STALE answer whose bytes equal the plain request's (no page cut, no parameters; a
  // query string the type ignores changes nothing) reuses the answer encoded once per entry and
  // cache result, with its ETag. Not when it names a Retry-After time, which passes.
  const samePlain = !form.list || (r.opts.plain && !r.opts.noPaging);
  const kept = cacheStatus === 'HIT' || ((cacheStatus === 'STALE' || cacheStatus === 'STALE-ON-ERROR') && meta.retry_after === undefined);
  if (kept && samePlain && page === undefined && r.channel === 'rest' && r.city && !form.params?.length) {
    o.prepared = preparedOf(entry, cacheStatus, () => prepare(o));
  }
  return o;
}

/** The page the request asks for when it cuts the list (meta.pagination set either way); undefined for the whole list. */
function pageOf(r: Resolved, form: Form, entry: Loaded['entry'], meta: Record<string, unknown>): unknown {
  // Stored entries are cut before they are normalised: a page of a large board, not the board.
  const raw = rawStoredData(entry);
  const data = raw !== undefined ? raw : entryData(entry);
  const listOf = form.list === true ? data : (data as Record<string, unknown> | null)?.[form.list as string];
  if (!Array.isArray(listOf)) return undefined;
  const { items, meta: pm } = paginate(listOf, r.page!, r.channel);
  meta.pagination = pm;
  if (!pm.applied) return undefined;
  const cut = form.list === true ? items : { ...(data as object), [form.list as string]: items };
  return raw !== undefined ? normalise(cut) : cut;
}
