import { setTimeout as sleep } from 'node:timers/promises';
import type { City } from '../../cities/register.ts';
import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { Runtime } from '../../pipeline/runtime.ts';
import { OVERPASS } from '../../sources/overpass/source.ts';
import type { OverpassAnswer } from '../../sources/overpass/parse.ts';
import { PLACE_TYPES, type PlaceType } from '../../sources/overpass/place-types.ts';
import { placesQuery } from '../../sources/overpass/places-query.ts';
import { parsePlacesAnswer } from '../../sources/overpass/places-parse.ts';
import { markPlacesFailed, writeStoredPlaces } from '../../sources/overpass/places-stored.ts';

export interface PlacesProgress {
  city: string;
  outcome: 'ok' | 'failed';
  counts?: Record<string, number>;
  error?: string;
  /** Overpass requests this city took (retries included). */
  requests: number;
}

export interface PlacesRefreshOptions {
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
  types?: readonly PlaceType[];
  signal?: AbortSignal;
  onProgress?(p: PlacesProgress): void;
}

export interface PlacesRefreshSummary {
  ok: number;
  failed: number;
  /** Cities not attempted (deadline, abort or too many failures). */
  remaining: number;
  /** Overpass requests sent, retries included. */
  requests: number;
  aborted: string | null;
}

export const PLACES_DEFAULTS = {
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
 * Queries Overpass once per city for every place type (one query, the answer sorted into
 * types) with at most `concurrency` queries in flight, backing off on 429/504, and stores
 * each city's lists. A failed city keeps its previous lists. Shared by the scheduled job,
 * `npm run precompute` and the demo.
 */
export async function refreshPlaces(rt: Runtime, cities: readonly City[], opts: PlacesRefreshOptions = {}): Promise<PlacesRefreshSummary> {
  const o = { ...PLACES_DEFAULTS, types: PLACE_TYPES, ...opts };
  const summary: PlacesRefreshSummary = { ok: 0, failed: 0, remaining: cities.length, requests: 0, aborted: null };
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

  const queryCity = async (city: City, count: () => void) => {
    for (let attempt = 0; ; attempt++) {
      try {
        count();
        const body = await http.json<OverpassAnswer>('/interpreter', { form: { data: placesQuery(city, o.types) } });
        return parsePlacesAnswer(body, o.types);
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
        const computed_at = toBerlinIso(new Date());
        const lists = o.types.map((t) => ({ type: t.id, items: answer.byType.get(t.id) ?? [], osm_base: answer.osm_base, computed_at }));
        const counts = Object.fromEntries(lists.map((l) => [l.type, l.items.length]));
        await writeStoredPlaces(rt.store, city.slug, lists, { computed_at, osm_base: answer.osm_base, counts });
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
        await markPlacesFailed(rt.store, city.slug, msg, o.failureHoldMs).catch(() => {});
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
