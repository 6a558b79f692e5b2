import { setTimeout as sleep } from 'node:timers/promises';
import type { City } from '../../cities/register.ts';
import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { JobHost } from '../../core/job.ts';
import { OVERPASS } from '../../sources/overpass/source.ts';
import type { OverpassAnswer } from '../../sources/overpass/parse.ts';

/**
 * One weekly OpenStreetMap precompute (POIs, places): how to ask Overpass for a city's whole
 * type table in one query, how to read the answer and where to keep it.
 */
export interface CityProduct<A> {
  query(city: City): string;
  /** Throws on an incomplete answer (runtime-error remark, unknown area). */
  parse(body: OverpassAnswer): A;
  /** Stores the city's answer and lifts its failure hold; returns the object count per type. */
  store(city: City, answer: A, computedAt: string): Promise<Record<string, number>>;
  markFailed(city: City, reason: string, holdMs: number): Promise<void>;
}

export interface CityProgress {
  city: string;
  outcome: 'ok' | 'failed';
  counts?: Record<string, number>;
  error?: string;
  /** Overpass requests this city took (retries included). */
  requests: number;
}

export interface CityRefreshOptions {
  /** Queries in flight at once; the public instance gives each client about two slots. */
  concurrency?: number;
  /** Pause of each worker between two of its queries. */
  pauseMs?: number;
  /** First wait after 429/504 (doubled per retry) unless the upstream sends Retry-After. */
  backoffMs?: number;
  maxRetries?: number;
  /** The run gives up after this many failed cities in a row (the upstream is down). */
  maxConsecutiveFailures?: number;
  /** No new query is started after this instant (epoch ms). */
  deadline?: number;
  /** How long the scheduled job leaves a failed city alone. */
  failureHoldMs?: number;
  signal?: AbortSignal;
  onProgress?(p: CityProgress): void;
}

export interface CityRefreshSummary {
  ok: number;
  failed: number;
  /** Cities not attempted (deadline, abort or too many failures). */
  remaining: number;
  /** Overpass requests sent, retries included. */
  requests: number;
  aborted: string | null;
}

/** Within the public instance's usage policy: two slots per client, a pause between queries. */
export const OVERPASS_REFRESH_DEFAULTS = {
  concurrency: 2,
  pauseMs: 2_000,
  backoffMs: 30_000,
  maxRetries: 3,
  maxConsecutiveFailures: 6,
  failureHoldMs: 6 * 3600_000,
} as const;

/** 429: the client's slots are used up; 504: the server is overloaded. Both pass with time. */
function retryable(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && (err.kind === 'rate_limited' || (err.kind === 'status' && err.status === 504));
}

/**
 * Queries Overpass once per city with at most `concurrency` queries in flight, backing off on
 * 429/504, and stores each city's answer. A failed city keeps its previous values and is
 * held back. Shared by the POI and place precomputes (scheduled jobs, `npm run precompute`,
 * the demo, the bench).
 */
export async function refreshCities<A>(
  rt: JobHost,
  cities: readonly City[],
  product: CityProduct<A>,
  opts: CityRefreshOptions = {},
): Promise<CityRefreshSummary> {
  const o = { ...OVERPASS_REFRESH_DEFAULTS, ...opts };
  const summary: CityRefreshSummary = { ok: 0, failed: 0, remaining: cities.length, requests: 0, aborted: null };
  const base = rt.http(OVERPASS);
  const http = o.signal ? base.withSignal(o.signal) : base;
  let next = 0;
  let failuresInRow = 0;

  const stop = (): boolean => {
    if (summary.aborted) return true;
    if (o.signal?.aborted) summary.aborted = 'shutdown';
    else if (o.deadline !== undefined && Date.now() >= o.deadline) summary.aborted = 'time budget used up';
    return summary.aborted !== null;
  };

  const queryCity = async (city: City, count: () => void): Promise<A> => {
    for (let attempt = 0; ; attempt++) {
      try {
        count();
        const body = await http.json<OverpassAnswer>('/interpreter', { form: { data: product.query(city) } });
        return product.parse(body);
      } catch (err) {
        if (!retryable(err) || attempt >= o.maxRetries) throw err;
        const wait = err.retryAfterMs ?? o.backoffMs * 2 ** attempt;
        // A scheduled run must end inside its cluster lock; the city is retried by a later run.
        if (o.deadline !== undefined && Date.now() + wait > o.deadline) throw err;
        await sleep(wait, undefined, { signal: o.signal });
      }
    }
  };

  const worker = async () => {
    while (next < cities.length && !stop()) {
      const city = cities[next++];
      if (city === undefined) break;
      let requests = 0;
      try {
        const answer = await queryCity(city, () => {
          requests++;
          summary.requests++;
        });
        const counts = await product.store(city, answer, toBerlinIso(new Date()));
        summary.ok++;
        failuresInRow = 0;
        o.onProgress?.({ city: city.slug, outcome: 'ok', counts, requests });
      } catch (err) {
        if (o.signal?.aborted) {
          summary.aborted = 'shutdown';
          return;
        }
        const msg = err instanceof Error ? err.message : String(err);
        summary.failed++;
        failuresInRow++;
        await product.markFailed(city, msg, o.failureHoldMs).catch(() => {});
        o.onProgress?.({ city: city.slug, outcome: 'failed', error: msg, requests });
        if (failuresInRow >= o.maxConsecutiveFailures) summary.aborted ??= `${failuresInRow} failures in a row`;
      }
      summary.remaining--;
      if (o.pauseMs > 0 && next < cities.length) {
        try {
          await sleep(o.pauseMs, undefined, { signal: o.signal });
        } catch {
          summary.aborted ??= 'shutdown';
          return;
        }
      }
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, cities.length)) }, worker));
  return summary;
}

/**
 * Cities whose values are missing or older than `maxAgeMs` (`computedAt` gives the oldest
 * epoch ms of a city's values, null when any is missing), never computed ones first, then the
 * oldest; cities that failed recently wait for their hold to pass.
 */
export async function dueCities(
  cities: readonly City[],
  computedAt: (city: City) => Promise<number | null>,
  failedRecently: (city: City) => Promise<boolean>,
  maxAgeMs: number,
  now = Date.now(),
): Promise<City[]> {
  const due: { city: City; computed: number }[] = [];
  for (const city of cities) {
    const at = await computedAt(city);
    const computed = at === null || Number.isNaN(at) ? 0 : at;
    if (computed > 0 && now - computed < maxAgeMs) continue;
    if (await failedRecently(city)) continue;
    due.push({ city, computed });
  }
  return due.sort((a, b) => a.computed - b.computed).map((d) => d.city);
}
