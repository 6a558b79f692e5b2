import { setTimeout as sleep } from 'node:timers/promises';
import type { City } from '../../cities/register.ts';
import { toBerlinIso } from '../../core/time.ts';
import type { Runtime } from '../../pipeline/runtime.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { OVERPASS } from '../../sources/overpass/source.ts';
import type { PoiType } from '../../sources/overpass/poi-types.ts';
import { ITEM_CAP, poiQuery } from '../../sources/overpass/query.ts';
import { parsePoiAnswer, type OverpassAnswer } from '../../sources/overpass/parse.ts';
import { markPoisFailed, writeStoredPois } from '../../sources/overpass/stored.ts';

export interface PoiTarget {
  city: City;
  type: PoiType;
}

export interface PoiProgress {
  index: number;
  total: number;
  city: string;
  type: string;
  outcome: 'ok' | 'failed';
  total_available?: number;
  items?: number;
  error?: string;
}

export interface RefreshOptions {
  /** Pause between two queries: the public instance serves few slots per client. */
  pauseMs?: number;
  /** First wait after 429/504 (doubled per retry) unless the upstream sends Retry-After. */
  backoffMs?: number;
  maxRetries?: number;
  /** The run gives up after this many failures in a row (the upstream is down). */
  maxConsecutiveFailures?: number;
  /** No new query is started after this instant (epoch ms). */
  deadline?: number;
  /** How long the scheduled job leaves a failed city/type alone. */
  failureHoldMs?: number;
  signal?: AbortSignal;
  onProgress?(p: PoiProgress): void;
}

export interface RefreshSummary {
  ok: number;
  failed: number;
  /** Targets not attempted (deadline, abort or too many failures). */
  remaining: number;
  aborted: string | null;
}

export const DEFAULTS = {
  pauseMs: 5_000,
  backoffMs: 30_000,
  maxRetries: 3,
  maxConsecutiveFailures: 5,
  failureHoldMs: 6 * 3600_000,
} as const;

/** Overpass answers 429 when the client's slots are used up and 504 when the server is overloaded. */
function retryable(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && (err.kind === 'rate_limited' || (err.kind === 'status' && err.status === 504));
}

async function queryOnce(
  rt: Runtime,
  target: PoiTarget,
  o: Required<Pick<RefreshOptions, 'backoffMs' | 'maxRetries'>> & Pick<RefreshOptions, 'deadline' | 'signal'>,
) {
  const base = rt.http(OVERPASS);
  const http = o.signal ? base.withSignal(o.signal) : base;
  for (let attempt = 0; ; attempt++) {
    try {
      const body = await http.json<OverpassAnswer>('/interpreter', { form: { data: poiQuery(target.city, target.type) } });
      return parsePoiAnswer(body, target.type.keepTags);
    } catch (err) {
      if (!retryable(err) || attempt >= o.maxRetries) throw err;
      const wait = err.retryAfterMs ?? o.backoffMs * 2 ** attempt;
      // A scheduled run must end inside its cluster lock; the pair is retried by a later run.
      if (o.deadline !== undefined && Date.now() + wait > o.deadline) throw err;
      await sleep(wait, undefined, { signal: o.signal });
    }
  }
}

/**
 * Queries Overpass for each target, one after another, and stores what it gets. A failed
 * target keeps its previous stored value. Shared by the scheduled job and `npm run precompute`.
 */
export async function refreshPois(rt: Runtime, targets: readonly PoiTarget[], opts: RefreshOptions = {}): Promise<RefreshSummary> {
  const o = { ...DEFAULTS, ...opts };
  const summary: RefreshSummary = { ok: 0, failed: 0, remaining: targets.length, aborted: null };
  let failuresInRow = 0;
  for (const [i, t] of targets.entries()) {
    if (o.signal?.aborted) {
      summary.aborted = 'shutdown';
      break;
    }
    if (o.deadline !== undefined && Date.now() >= o.deadline) {
      summary.aborted = 'time budget used up';
      break;
    }
    const base = { index: i + 1, total: targets.length, city: t.city.slug, type: t.type.id };
    try {
      const answer = await queryOnce(rt, t, o);
      await writeStoredPois(rt.store, t.city.slug, {
        type: t.type.id,
        total_available: answer.total_available,
        items: answer.items.slice(0, ITEM_CAP),
        item_cap: ITEM_CAP,
        osm_base: answer.osm_base,
        computed_at: toBerlinIso(new Date()),
      });
      summary.ok++;
      failuresInRow = 0;
      o.onProgress?.({ ...base, outcome: 'ok', total_available: answer.total_available, items: Math.min(answer.items.length, ITEM_CAP) });
    } catch (err) {
      if (o.signal?.aborted) {
        summary.aborted = 'shutdown';
        break;
      }
      const msg = err instanceof Error ? err.message : String(err);
      summary.failed++;
      failuresInRow++;
      await markPoisFailed(rt.store, t.city.slug, t.type.id, msg, o.failureHoldMs).catch(() => {});
      o.onProgress?.({ ...base, outcome: 'failed', error: msg });
      if (failuresInRow >= o.maxConsecutiveFailures) {
        summary.remaining--;
        summary.aborted = `${failuresInRow} failures in a row`;
        break;
      }
    }
    summary.remaining--;
    if (i < targets.length - 1 && o.pauseMs > 0) {
      try {
        await sleep(o.pauseMs, undefined, { signal: o.signal });
      } catch {
        summary.aborted = 'shutdown';
        break;
      }
    }
  }
  return summary;
}
