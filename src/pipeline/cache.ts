import { randomUUID } from 'node:crypto';
import { normalise } from '../core/normalise.ts';
import { toBerlinIso } from '../core/time.ts';
import type { Store } from '../core/store.ts';
import type { CacheWindows } from '../core/data-type.ts';

import { BoundedMap } from '../core/bounded-map.ts';
import type { CacheStatus } from '../core/data-type.ts';

export type { CacheStatus };

/** A whole answer encoded once: the envelope's bytes, their strong ETag and the headers that say how it was served. */
export interface PreparedAnswer {
  readonly body: Buffer;
  readonly etag: string;
  /** Cache-Status, which differs between a HIT and a STALE answer of the same entry. */
  readonly headers: readonly (readonly [string, string])[];
  readonly cacheStatus: CacheStatus | null;
}

/** The cache results whose whole answer is kept with the entry (a MISS is sent once). */
export type PreparedStatus = 'HIT' | 'STALE' | 'STALE-ON-ERROR';

/**
 * A cached, already normalised answer. `dataJson` is serialised once, at fetch time. Only this
 * module changes an entry (its data parsed or normalised once, its prepared answer): the request
 * path reads it through the functions below.
 */
export interface Entry {
  fetchedAt: number;
  status: 'ok' | 'no_data';
  asOf: string | null;
  meta: Record<string, unknown>;
  dataJson: string;
  /** Set when the latest refresh failed; later requests say STALE-ON-ERROR. */
  failedAt?: number;
  /** The whole answer for a plain request (no query, REST channel) per cache result, encoded once per entry. */
  prepared?: Partial<Record<PreparedStatus, PreparedAnswer>>;
  /** fetchedAt as zoned ISO, computed once per entry (formatting dates is costly on the HIT path). */
  fetchedAtIso?: string;
  /** When that failure carried a Retry-After (e.g. a 429): the time the upstream asked to wait until. */
  retryAfterUntil?: number;
  parsed?: unknown;
  /** `parsed` is the adapter's data as returned, normalised only when sent (stored types, per request). */
  unnormalised?: boolean;
  /**
   * Built from a shared value that was itself stale: `fetchedAt` is that value's, and a set
   * `failedAt` says its refresh failed. Such an entry is never announced as HIT or MISS.
   */
  inherited?: boolean;
}

/**
 * A fresh entry from an adapter's result: fetched types hold their data as JSON, stored types as
 * the adapter's object, normalised when sent. `inherited`: built from a stale shared value (see
 * Entry.inherited), as old as that value.
 */
export function newEntry(
  e: { status: Entry['status']; asOf: string | null; meta: Record<string, unknown>; inherited?: { fetchedAt: number; failed: boolean } } & (
    { dataJson: string } | { stored: unknown }
  ),
): Entry {
  const now = Date.now();
  const base: Entry = { fetchedAt: e.inherited?.fetchedAt ?? now, status: e.status, asOf: e.asOf, meta: e.meta, dataJson: '' };
  if (e.inherited) {
    base.inherited = true;
    if (e.inherited.failed) base.failedAt = now;
  }
  return 'dataJson' in e ? { ...base, dataJson: e.dataJson } : { ...base, parsed: e.stored, unnormalised: true };
}

/** The entry's data as an object, parsed once (stored entries: normalised once). */
export function entryData(e: Entry): unknown {
  if (e.unnormalised) {
    e.parsed = normalise(e.parsed ?? null);
    e.unnormalised = false;
  }
  if (e.parsed === undefined) e.parsed = JSON.parse(e.dataJson);
  return e.parsed;
}

/** Stored data not yet normalised: the adapter's object, to be cut to a page before it is normalised (normalise() then). */
export function rawStoredData(e: Entry): unknown | undefined {
  return e.unnormalised ? (e.parsed ?? null) : undefined;
}

/** The entry's data as JSON, serialised once. */
export function entryJson(e: Entry): string {
  if (e.dataJson === '') e.dataJson = JSON.stringify(entryData(e) ?? null);
  return e.dataJson;
}

/** fetchedAt as zoned ISO, computed once per entry (formatting dates is costly on the HIT path). */
export function entryFetchedIso(e: Entry): string {
  return (e.fetchedAtIso ??= toBerlinIso(e.fetchedAt));
}

/** The entry's whole answer for a plain request with this cache result, built once by `build` and kept with the entry. */
export function preparedOf(e: Entry, status: PreparedStatus, build: () => PreparedAnswer): PreparedAnswer {
  const kept = (e.prepared ??= {});
  return (kept[status] ??= build());
}

/** A stale entry's cache result: STALE-ON-ERROR once its latest refresh failed. */
function staleStatusOf(e: Entry): 'STALE' | 'STALE-ON-ERROR' {
  return e.failedAt !== undefined && e.failedAt >= e.fetchedAt ? 'STALE-ON-ERROR' : 'STALE';
}

/**
 * The cache result a request would get from this entry now, without fetching: null once it is past
 * its stale window (the request would fetch anew).
 */
export function peekStatus(e: Entry, windows: CacheWindows, now = Date.now()): Exclude<CacheStatus, 'MISS'> | null {
  const age = now - e.fetchedAt;
  if (age < windows.freshSeconds * 1000) return 'HIT';
  if (age < (windows.freshSeconds + windows.staleSeconds) * 1000) return staleStatusOf(e);
  return null;
}

/** The request budget ran out while the one fetch for the key goes on (and will fill the cache). */
export class BudgetExceededError extends Error {
  override readonly name = 'BudgetExceededError';
  readonly retryAfterMs = 5000;
  /** Our own limit, not the upstream's fault (see isUpstreamFault). */
  readonly ownRefusal = true;
  readonly budgetMs: number;
  constructor(budgetMs: number) {
    super(`no upstream answer within the request budget of ${budgetMs} ms`);
    this.budgetMs = budgetMs;
  }
}

/** Store format: one JSON header line, then the data JSON verbatim (never re-parsed on a HIT). */
export function encodeEntry(e: Entry): string {
  return JSON.stringify({ f: e.fetchedAt, s: e.status, a: e.asOf, m: e.meta, e: e.failedAt ?? null, i: e.inherited ? 1 : undefined }) + '\n' + e.dataJson;
}

export function decodeEntry(raw: string): Entry | null {
  const nl = raw.indexOf('\n');
  if (nl < 0) return null;
  try {
    const h = JSON.parse(raw.slice(0, nl));
    return { fetchedAt: h.f, status: h.s, asOf: h.a, meta: h.m ?? {}, failedAt: h.e ?? undefined, inherited: h.i === 1, dataJson: raw.slice(nl + 1) };
  } catch {
    return null;
  }
}

export interface CacheOutcome {
  entry: Entry;
  status: CacheStatus;
}

export interface CacheDeps {
  store: Store;
  /** With a shared store, a short lock makes one instance per key call the upstream. */
  distributedLocks: boolean;
  requestBudgetMs: number;
  /** Budget of the in-process copies of entries (bytes, estimated: see entryBytes). */
  memoryBytes: number;
  onBackgroundError(key: string, err: unknown): void;
  /** An entry changed in this process (fetched, read newer from the store, or its refresh failed). */
  onChange?(): void;
}

/** Longest a stored value is kept past its stale window, to serve STALE-ON-ERROR. */
function errorKeepMs(w: CacheWindows): number {
  return Math.max(w.staleSeconds, 3600) * 1000;
}

/**
 * What an in-process entry is charged against CacheDeps.memoryBytes: its JSON three times over (the
 * JSON, its parsed form and the prepared answers kept with it), or, for a stored type's entry whose
 * JSON is made only when sent, a flat share; plus its key and bookkeeping.
 */
const STORED_ENTRY_BYTES = 64 * 1024;
const entryBytes = (key: string, e: Entry) => key.length + 1024 + (e.dataJson === '' ? STORED_ENTRY_BYTES : e.dataJson.length * 3);

/** A just-fetched entry is a MISS, unless it was built from stale shared input (see Entry.inherited). */
function statusOfFetched(e: Entry): CacheStatus {
  if (!e.inherited) return 'MISS';
  return e.failedAt !== undefined && e.failedAt >= e.fetchedAt ? 'STALE-ON-ERROR' : 'STALE';
}

/**
 * Fresh/stale windows with single-flight. HIT and STALE never wait for the upstream; a MISS
 * waits for exactly one fetch per key, shared by every concurrent request (and, with Redis,
 * by every instance through a short lock).
 */
export class Cache {
  /**
   * In-process copy of stored entries, so a HIT costs no store round-trip. Its keys carry request
   * parameters, so it holds at most CACHE_MEMORY_MB (oldest out first; the store still has them).
   */
  private readonly l1: BoundedMap<string, Entry>;
  private readonly inflight = new Map<string, Promise<Entry>>();

  private readonly deps: CacheDeps;
  constructor(deps: CacheDeps) {
    this.deps = deps;
    this.l1 = new BoundedMap(deps.memoryBytes, entryBytes);
  }

  async get(
    key: string,
    windows: CacheWindows,
    fetcher: () => Promise<Entry>,
    breakerOpen: () => Promise<boolean>,
  ): Promise<CacheOutcome | { status: 'UNAVAILABLE'; error: unknown }> {
    const now = Date.now();
    const freshMs = windows.freshSeconds * 1000;
    const staleMs = windows.staleSeconds * 1000;
    const l1 = this.l1.get(key);
    if (l1 && now - l1.fetchedAt < freshMs) return { entry: l1, status: 'HIT' };

    let entry = l1 ?? null;
    // While this process refreshes the key, the store has nothing newer than that refresh will bring
    // (with Redis, a newer entry written by another instance is picked up by the refresh's wait).
    if (!entry || (now - entry.fetchedAt >= freshMs && !this.inflight.has(key))) {
      const stored = await this.readStore(key);
      // Same age: keep the in-process copy, which alone knows a failed refresh (STALE-ON-ERROR).
      if (stored && (!entry || stored.fetchedAt > entry.fetchedAt)) entry = stored;
    }
    if (entry) this.remember(key, entry);
    if (entry && now - entry.fetchedAt < freshMs) return { entry, status: 'HIT' };

    if (entry && now - entry.fetchedAt < freshMs + staleMs) {
      const open = await breakerOpen();
      if (!open) this.refreshInBackground(key, windows, fetcher);
      const failed = open || (entry.failedAt !== undefined && entry.failedAt >= entry.fetchedAt);
      return { entry, status: failed ? 'STALE-ON-ERROR' : 'STALE' };
    }

    // A fetch that finished while this request read the store (its flight is gone by now): this
    // request joined it, so it answers with that entry instead of starting a second fetch.
    const joined = () => {
      const e = this.l1.get(key);
      return e && e.fetchedAt >= now ? { entry: e, status: statusOfFetched(e) } : null;
    };
    const early = joined();
    if (early) return early;
    // With nothing cached the fetch still runs while the breaker is open: each of its calls to an open host is
    // refused before it is made (pipeline/breakers.ts), and a value it builds from a shared one still cached
    // (FetchContext.cached) can answer, as old as that value.
    if (entry && (await breakerOpen())) return { entry, status: 'STALE-ON-ERROR' };
    const late = joined();
    if (late) return late;
    const fetching = this.fetchOnce(key, windows, fetcher, entry?.fetchedAt ?? 0);
    try {
      const fresh = await this.withinBudget(fetching, now);
      if (fresh === null) {
        // The fetch goes on and fills the cache; this request answers now with what there is.
        const kept = entry;
        fetching.catch((err) => {
          if (kept) this.markFailed(key, kept, err);
          this.deps.onBackgroundError(key, err);
        });
        if (entry) return { entry, status: 'STALE-ON-ERROR' };
        return { status: 'UNAVAILABLE', error: new BudgetExceededError(this.deps.requestBudgetMs) };
      }
      return { entry: fresh, status: statusOfFetched(fresh) };
    } catch (error) {
      if (entry) {
        this.markFailed(key, entry, error);
        return { entry, status: 'STALE-ON-ERROR' };
      }
      return { status: 'UNAVAILABLE', error };
    }
  }

  /** The fetch's entry, or null when the request budget (counted from `since`) runs out first. */
  private withinBudget(fetching: Promise<Entry>, since: number): Promise<Entry | null> {
    const left = this.deps.requestBudgetMs - (Date.now() - since);
    if (left <= 0) return Promise.resolve(null);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), left);
    });
    return Promise.race([fetching, expired]).finally(() => clearTimeout(timer));
  }

  private remember(key: string, entry: Entry) {
    if (this.l1.get(key) !== entry) this.deps.onChange?.();
    this.l1.set(key, entry);
  }

  private async readStore(key: string): Promise<Entry | null> {
    try {
      const raw = await this.deps.store.get(`cache:${key}`);
      return raw ? decodeEntry(raw) : null;
    } catch {
      return null;
    }
  }

  private async write(key: string, entry: Entry, windows: CacheWindows) {
    this.remember(key, entry);
    const ttl = (windows.freshSeconds + windows.staleSeconds) * 1000 + errorKeepMs(windows);
    try {
      await this.deps.store.set(`cache:${key}`, encodeEntry(entry), ttl);
    } catch {
      /* the L1 copy still serves */
    }
  }

  private markFailed(key: string, entry: Entry, err?: unknown) {
    entry.failedAt = Date.now();
    const wait = (err as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
    entry.retryAfterUntil = typeof wait === 'number' && wait > 0 ? entry.failedAt + wait : undefined;
    if (entry.prepared) delete entry.prepared['STALE-ON-ERROR'];
    this.deps.onChange?.();
    this.remember(key, entry);
  }

  private refreshInBackground(key: string, windows: CacheWindows, fetcher: () => Promise<Entry>) {
    if (this.inflight.has(key)) return;
    const current = this.l1.get(key);
    this.fetchOnce(key, windows, fetcher, current?.fetchedAt ?? 0, true).catch((err) => {
      if (current) this.markFailed(key, current, err);
      this.deps.onBackgroundError(key, err);
    });
  }

  /** Single-flight: one fetch per key per process; with locks, per cluster. */
  private fetchOnce(key: string, windows: CacheWindows, fetcher: () => Promise<Entry>, knownFetchedAt: number, background = false): Promise<Entry> {
    const running = this.inflight.get(key);
    if (running) return running;
    const p = (async () => {
      if (!this.deps.distributedLocks) {
        const e = await fetcher();
        await this.write(key, e, windows);
        return e;
      }
      const token = randomUUID();
      const lockKey = `lock:${key}`;
      const lockMs = Math.min(this.deps.requestBudgetMs, 15_000);
      if (await this.deps.store.setIfAbsent(lockKey, token, lockMs)) {
        try {
          const e = await fetcher();
          await this.write(key, e, windows);
          return e;
        } finally {
          await this.deps.store.delIfEquals(lockKey, token).catch(() => {});
        }
      }
      // Another instance is fetching this key: wait for its value, never past the budget.
      if (background) {
        const e = await this.waitForNewer(key, knownFetchedAt, lockMs);
        if (e) return e;
        throw new Error('refresh by another instance did not finish');
      }
      const waited = await this.waitForNewer(key, knownFetchedAt, Math.min(lockMs, this.deps.requestBudgetMs / 2));
      if (waited) return waited;
      const e = await fetcher();
      await this.write(key, e, windows);
      return e;
    })();
    this.inflight.set(key, p);
    p.finally(() => this.inflight.delete(key)).catch(() => {});
    return p;
  }

  private async waitForNewer(key: string, knownFetchedAt: number, maxMs: number): Promise<Entry | null> {
    const until = Date.now() + maxMs;
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, 25));
      const e = await this.readStore(key);
      if (e && e.fetchedAt > knownFetchedAt) {
        this.remember(key, e);
        return e;
      }
    }
    return null;
  }

  /**
   * What is cached for the key, read-only: the in-process copy, else the store's. No fetch, no
   * background refresh, no single-flight and no change to the in-process copy, so an aggregate page
   * can show what a request would meet without starting one (and a crawl of such pages costs no
   * upstream call and keeps nothing).
   */
  async peek(key: string): Promise<Entry | null> {
    return this.l1.get(key) ?? (await this.readStore(key));
  }

  /**
   * The prepared answer the full path would give right now for the in-process entry, without
   * touching the store (the fast path): the HIT while the entry is fresh; once it is stale, the
   * STALE (or STALE-ON-ERROR) answer while its refresh is under way, since the full path would only
   * join that refresh, or while the source's breaker is open (`refused`), since it would start
   * none. Null: take the full path (which starts a refresh).
   */
  servablePrepared(key: string, windows: CacheWindows, refused: () => boolean): PreparedAnswer | null {
    const e = this.l1.get(key);
    if (!e?.prepared) return null;
    const age = Date.now() - e.fetchedAt;
    if (age < windows.freshSeconds * 1000) return e.prepared.HIT ?? null;
    if (age >= (windows.freshSeconds + windows.staleSeconds) * 1000) return null;
    if (refused()) return e.prepared['STALE-ON-ERROR'] ?? null;
    return this.inflight.has(key) ? (e.prepared[staleStatusOf(e)] ?? null) : null;
  }
}
